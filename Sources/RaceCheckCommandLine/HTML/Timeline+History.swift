import RaceCheckEngine

extension Timeline {
  /// The timeline of a run's history: a lane per thread, marked with the checker's explanation when it has one.
  ///
  /// - Parameters:
  ///   - history: The failing history.
  ///   - explanation: Why it has no linearization, for a result no order explains.
  ///   - window: The smallest failing window as entry indexes, when it was worked out.
  ///   - voidOperations: The operations that return nothing, whose results are left out.
  init(
    history: History, explanation: Explanation?, window: [Int]?, voidOperations: Set<String>
  ) {
    let threads = Set(history.entries.map(\.process)).sorted()
    let laneOfThread = Dictionary(uniqueKeysWithValues: threads.enumerated().map { ($1, $0) })
    let operations = history.entries.map { entry in
      Operation(
        lane: laneOfThread[entry.process, default: 0], callTime: entry.callTime,
        returnTime: entry.status == .info ? nil : entry.returnTime, call: entry.call,
        result: voidOperations.contains(entry.call.operation) || entry.status == .info
          ? nil : entry.result.description,
        status: entry.status)
    }
    let marks = explanation.map { explanation in
      Marks(
        window: window, order: explanation.longestPrefix, state: explanation.state,
        candidates: explanation.candidates.map { candidate in
          Candidate(
            operation: candidate.entry,
            failure: candidate.returned == candidate.expected
              ? .deadEnd(returned: candidate.returned.description)
              : .unplaceable(
                returned: candidate.returned.description, allowed: candidate.expected.description))
        })
    }
    self.init(lanes: threads.map { "Thread \($0)" }, operations: operations, marks: marks)
  }
}
