import RaceCheckEngine

extension RecordedHistory.Operation {
  /// An operation of a hand-built run's history: thread `thread` called `operation` with `arguments` from `callTime` to `returnTime`.
  package static func made(
    _ thread: Int, _ operation: String, _ arguments: [Value], _ callTime: Int64,
    _ returnTime: Int64, result: Value = .null
  ) -> RecordedHistory.Operation {
    RecordedHistory.Operation(
      thread: thread, Scenario.Call(operation, arguments), call: callTime, return: returnTime,
      result: result)
  }
}
