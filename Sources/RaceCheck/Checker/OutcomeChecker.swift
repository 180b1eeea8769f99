/// Checks the outcomes of one prepared scenario against the model.
final class OutcomeChecker<Model: Hashable & Sendable> {
  let initial: Model
  let steps: [@Sendable (inout Model) -> Value]
  /// Outcomes already found to have no linearization, so repeats are counted without a search.
  var failingOutcomes = Set<InvocationOutcome>()

  init(initial: Model, steps: [@Sendable (inout Model) -> Value]) {
    self.initial = initial
    self.steps = steps
  }

  /// Searches for a linearization of calls with these intervals and results.
  func check(
    _ intervals: [LinearizabilityChecker<Model>.Interval], _ results: [Value]
  ) -> LinearizabilityChecker<Model>.Outcome {
    let steps = self.steps
    return LinearizabilityChecker(intervals: intervals, initial: initial) { state, index in
      steps[index](&state) == results[index]
    }.check()
  }
}
