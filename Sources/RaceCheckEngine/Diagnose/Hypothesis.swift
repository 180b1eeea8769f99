/// Tests whether a failing history is explained by a model with one bug added.
///
/// A diagnosis never guesses: it names a bug only when the failing history, which
/// the correct model cannot linearize, becomes linearizable under the model with
/// exactly that bug. The witness order then shows where the bug acted.
struct Hypothesis<State: Hashable> {
  /// The model's expected result for the history's operation at an index, applied to the state; nil accepts any result.
  let step: (inout State, Int) -> Value?

  /// A linearization of `history` from `initial` under this model, or nil when there is none.
  func witness(for history: History, from initial: State) -> [Int]? {
    let operations = history.operations
    let intervals = operations.map {
      LinearizabilityChecker<State>.Interval(callTime: $0.call, returnTime: $0.return)
    }
    let checker = LinearizabilityChecker(intervals: intervals, initial: initial) { state, index in
      guard let expected = step(&state, index) else { return true }
      return expected == operations[index].result
    }
    if case .linearizable(let order) = checker.check() { return order }
    return nil
  }

  /// Replays `order`, calling `visit` with each operation's index and the state just before it, until `visit` returns a value.
  func replay<Found>(
    _ order: [Int], from initial: State, until visit: (Int, State) -> Found?
  ) -> Found? {
    var state = initial
    for index in order {
      if let found = visit(index, state) { return found }
      _ = step(&state, index)
    }
    return nil
  }
}

extension Hypothesis {
  /// The correct model: each operation's model side, by index, as ``Spec/modelSides(of:)`` gives them.
  init(modelSides: [(@Sendable (inout State) -> Value)?]) {
    self.init { state, index in modelSides[index].map { $0(&state) } }
  }
}
