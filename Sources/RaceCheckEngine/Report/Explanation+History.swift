extension Explanation {
  /// Explains why `history` has no linearization past `longestPrefix`: what each operation that could come next returned, against what the model in `state` gives.
  init<Model>(
    history: History, longestPrefix: [Int], state: Model,
    steps: [@Sendable (inout Model) -> Value]
  ) {
    let entries = history.entries
    let placed = Set(longestPrefix)
    let remaining = entries.indices.filter { !placed.contains($0) }
    // An operation can come next when no other remaining operation returned before it was called.
    let candidates = remaining.filter { candidate in
      !remaining.contains { other in
        other != candidate && (entries[other].returnTime ?? .max) < entries[candidate].callTime
      }
    }
    self.init(
      longestPrefix: longestPrefix, state: ModelDescription.describe(state),
      candidates: candidates.map { index in
        var copy = state
        return Candidate(
          entry: index, returned: entries[index].result, expected: steps[index](&copy))
      })
  }
}
