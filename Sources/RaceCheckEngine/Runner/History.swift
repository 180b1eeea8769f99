/// What one run of a scenario recorded: each call as a ``RecordedHistory/Operation``, in history order.
///
/// A thread is the process numbered by its index, and times are
/// ``MonotonicInstant/nanoseconds``: only their order counts. Written to a file, with its
/// model, it becomes a ``RecordedHistory`` whose times count from its first call.
package struct History: Hashable, Sendable, Codable {
  /// What is known of an operation's outcome: the status a history file records.
  package typealias Status = RecordedHistory.Operation.Status

  /// The operations, in any order; a run's are in the order its scenario lists its calls.
  package var operations: [RecordedHistory.Operation]

  /// Creates a history from its operations.
  package init(operations: [RecordedHistory.Operation]) {
    self.operations = operations
  }
}

extension RecordedHistory.Operation {
  /// An operation thread `thread` of a run made: `invocation`, called at `call` and returned at `return` with `result`.
  package init(
    thread: Int, _ invocation: Scenario.Call, call: Int64, return: Int64, result: Value = .null
  ) {
    self.init(
      process: .int(thread), name: invocation.operation, arguments: invocation.arguments,
      call: call, return: `return`, result: result)
  }
}
