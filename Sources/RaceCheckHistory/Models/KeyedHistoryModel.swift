/// A model whose state is a map of independent keys, so that a history can be checked one key at a time.
///
/// Linearizability is compositional (Herlihy & Wing's locality): a history of a map
/// whose operations each touch one key is linearizable exactly when each key's
/// sub-history is. The checker splits such histories by key and checks the parts on
/// their own, in parallel.
package protocol KeyedHistoryModel: HistoryModel {
  /// The key `step` reads or writes, or nil when it spans keys (then the history is checked whole).
  static func key(of step: Step) -> String?

  /// This state with every key but `key` removed: the initial state of `key`'s part.
  func restricted(to key: String) -> Self
}
