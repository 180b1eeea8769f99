@testable import RaceCheckEngine

extension RecordedHistory.Operation {
  /// An operation of a hand-built run's history: thread `thread` called `operation` with `arguments` from `callTime` to `returnTime`.
  static func made(
    _ thread: Int, _ operation: String, _ arguments: [Value], _ callTime: Int64,
    _ returnTime: Int64, result: Value = .null
  ) -> RecordedHistory.Operation {
    RecordedHistory.Operation(
      thread: thread, call: Scenario.Call(operation, arguments), callTime: callTime,
      returnTime: returnTime, result: result)
  }
}
