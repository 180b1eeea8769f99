import RaceCheckEngine

extension Timeline {
  /// The timeline of a recorded history: a lane per process, marked with the violation when there is one.
  init(history: RecordedHistory, violation: Violation?) {
    let processes = Array(Set(history.operations.map(\.process))).sorted(by: Value.sortsBefore)
    let laneOfProcess = Dictionary(uniqueKeysWithValues: processes.enumerated().map { ($1, $0) })
    let operations = history.operations.indices.map { index in
      let operation = history.operations[index]
      return Operation(
        lane: laneOfProcess[operation.process, default: 0], recorded: operation,
        // As `racecheck check` prints them: `nil` for a nil a read returned, nothing for a write.
        result: history.resultText(index))
    }
    let marks = violation.map { violation in
      Marks(
        window: violation.window, order: violation.longestPrefix,
        state: violation.state.description,
        candidates: violation.candidates.map { candidate in
          Candidate(
            operation: candidate.operation,
            failure: candidate.fits
              ? .deadEnd(returned: candidate.returned?.resultText)
              // Only an operation whose outcome is known can fail to fit, so `returned` is there.
              : .unplaceable(
                returned: candidate.returned?.resultText ?? "nil",
                allowed: candidate.modelReturns.resultText))
        })
    }
    self.init(
      lanes: processes.map { "process " + ($0.stringValue.map(Value.quoted) ?? $0.description) },
      operations: operations, marks: marks, faults: history.faults)
  }
}
