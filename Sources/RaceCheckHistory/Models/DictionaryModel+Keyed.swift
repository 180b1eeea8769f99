extension DictionaryModel: KeyedHistoryModel {
  package func restricted(to key: String) -> DictionaryModel {
    DictionaryModel(entries.filter { Self.partName(of: $0.key) == key })
  }
}
