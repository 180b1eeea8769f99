import RaceCheckEngine

extension Checkable {
  /// The smallest failing window of `history` as indexes of its operations, when the history checker knows the checkable's model; else nil.
  ///
  /// A spec with a built-in model (``ArrayModel``, ``CounterModel``, …) records its history
  /// under the model's name, which the history checker reads; a spec's own model has no
  /// such name, and a history the checker finds linearizable under it has no window.
  func failingWindow(of history: History) -> [Int]? {
    let recorded = recordedHistory(history)
    guard BuiltInModels.names.contains(recorded.model) else { return nil }
    let verdict = try? HistoryChecker(timeout: .seconds(5), partitions: false).check(recorded)
    return verdict?.violation?.window
  }
}
