/// Tests whether a failing history is explained by a model with one bug added.
///
/// A diagnosis never guesses: it names a bug only when the failing history, which
/// the correct model cannot linearize, becomes linearizable under the model with
/// exactly that bug. The witness order then shows where the bug acted.
struct Hypothesis<State: Hashable> {
  /// The model's expected result for an entry, applied to the state; nil accepts any result.
  let step: (inout State, RecordedHistory.Operation) -> Value?

  /// A linearization of `history` from `initial` under this model, or nil when there is none.
  func witness(for history: History, from initial: State) -> [Int]? {
    let entries = history.operations
    let intervals = entries.map {
      LinearizabilityChecker<State>.Interval(callTime: $0.call, returnTime: $0.return)
    }
    let checker = LinearizabilityChecker(intervals: intervals, initial: initial) { state, index in
      guard let expected = step(&state, entries[index]) else { return true }
      return expected == entries[index].result
    }
    if case .linearizable(let order) = checker.check() { return order }
    return nil
  }

  /// Replays `order`, calling `visit` with each entry and the state just before it, until `visit` returns a value.
  func replay<Found>(
    _ order: [Int], of history: History, from initial: State,
    until visit: (RecordedHistory.Operation, State) -> Found?
  ) -> Found? {
    var state = initial
    for index in order {
      if let found = visit(history.operations[index], state) { return found }
      _ = step(&state, history.operations[index])
    }
    return nil
  }
}

extension HistoryModel {
  /// The model's own step for a history entry.
  static func correctStep(_ state: inout Self, _ entry: RecordedHistory.Operation) -> Value? {
    guard let step = try? Self.step(entry.name, entry.arguments) else { return nil }
    return state.apply(step)
  }
}
