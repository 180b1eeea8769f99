extension DictionaryModel: KeyedHistoryModel {
  package func restricted(to key: String) -> DictionaryModel {
    var part = DictionaryModel()
    part.entries[key] = entries[key]
    return part
  }
}
