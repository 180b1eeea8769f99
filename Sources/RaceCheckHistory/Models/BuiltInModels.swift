/// The models history files can name without any code of the user's: those of `history-format.md`.
package enum BuiltInModels {
  /// Every built-in model, in the order the format document lists them.
  package static let all: [any HistoryModel.Type] = [
    RegisterModel.self, CASRegisterModel.self, CounterModel.self, ArrayModel.self,
    DictionaryModel.self, SetModel.self, QueueModel.self, StackModel.self, KeyValueModel.self,
  ]

  /// The models' names, such as `"kv"`.
  package static var names: [String] { all.map { $0.name } }

  /// The model called `name`, if there is one.
  package static func model(named name: String) -> (any HistoryModel.Type)? {
    all.first { $0.name == name }
  }
}
