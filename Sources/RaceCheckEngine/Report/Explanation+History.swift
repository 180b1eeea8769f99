extension Explanation {
  /// Explains why `history` has no linearization past `longestPrefix`: what each operation that could come next returned, against what the model in `state` gives.
  init<Model>(
    history: History, longestPrefix: [Int], state: Model,
    steps: [@Sendable (inout Model) -> Value]
  ) {
    let operations = history.operations
    let placed = Set(longestPrefix)
    let remaining = operations.indices.filter { !placed.contains($0) }
    // An operation can come next when no other remaining operation returned before it was called.
    let candidates = remaining.filter { candidate in
      !remaining.contains { other in
        other != candidate && (operations[other].return ?? .max) < operations[candidate].call
      }
    }
    self.init(
      longestPrefix: longestPrefix, state: ModelDescription.describe(state),
      candidates: candidates.map { index in
        var copy = state
        return Candidate(
          operation: index, returned: operations[index].result, expected: steps[index](&copy))
      })
  }
}
