import RaceCheckEngine

extension Timeline {
  /// The timeline of a run's history: a lane per thread, marked with the checker's explanation when it has one.
  ///
  /// - Parameters:
  ///   - history: The failing history.
  ///   - explanation: Why it has no linearization, for a result no order explains.
  ///   - window: The smallest failing window as indexes of the history's operations, when it was worked out.
  ///   - voidOperations: The operations that return nothing, whose results are left out.
  init(
    history: History, explanation: Explanation?, window: [Int]?, voidOperations: Set<String>
  ) {
    let threads = Set(history.operations.map(\.process)).sorted(by: Value.sortsBefore)
    let laneOfThread = Dictionary(uniqueKeysWithValues: threads.enumerated().map { ($1, $0) })
    let operations = history.operations.map { operation in
      Operation(
        lane: laneOfThread[operation.process, default: 0], recorded: operation,
        result: voidOperations.contains(operation.name) || operation.status == .info
          ? nil : operation.result.description)
    }
    let marks = explanation.map { explanation in
      Marks(
        window: window, order: explanation.longestPrefix, state: explanation.state,
        candidates: explanation.candidates.map { candidate in
          Candidate(
            operation: candidate.operation,
            failure: candidate.returned == candidate.expected
              ? .deadEnd(returned: candidate.returned.description)
              : .unplaceable(
                returned: candidate.returned.description, allowed: candidate.expected.description))
        })
    }
    self.init(lanes: threads.map { "Thread \($0)" }, operations: operations, marks: marks)
  }
}
