extension Timeline {
  /// The timeline of a recorded history: a lane per process, marked with the violation when there is one.
  init(history: RecordedHistory, violation: Violation?) {
    let processes = Array(Set(history.operations.map(\.process))).sorted(by: Value.sortsBefore)
    let laneOfProcess = Dictionary(uniqueKeysWithValues: processes.enumerated().map { ($1, $0) })
    let operations = history.operations.map { operation in
      Operation(
        lane: laneOfProcess[operation.process, default: 0], callTime: operation.call,
        returnTime: operation.status == .info ? nil : operation.return,
        call: Scenario.Call(operation.name, operation.arguments),
        // As `racecheck check` prints them: a null result is the result of a call that returns nothing.
        result: operation.result.isNull || operation.status == .info
          ? nil : operation.result.description,
        status: operation.status)
    }
    let marks = violation.map { violation in
      Marks(
        window: violation.window, order: violation.longestPrefix,
        state: violation.state.description,
        candidates: violation.candidates.map { candidate in
          Candidate(
            operation: candidate.operation, returned: candidate.returned?.description,
            allowed: candidate.modelReturns.description, fits: candidate.fits)
        })
    }
    self.init(
      lanes: processes.map { "process " + ($0.stringValue.map(Value.quoted) ?? $0.description) },
      operations: operations, marks: marks)
  }
}
