import RaceCheckEngine

extension History.Entry {
  /// An entry of a hand-built history: thread `process` called `operation` with `arguments` from `callTime` to `returnTime`.
  package static func made(
    _ process: Int, _ operation: String, _ arguments: [Value], _ callTime: Int64,
    _ returnTime: Int64, result: Value = .null
  ) -> History.Entry {
    History.Entry(
      process: process, call: Scenario.Call(operation, arguments), callTime: callTime,
      returnTime: returnTime, result: result)
  }
}
