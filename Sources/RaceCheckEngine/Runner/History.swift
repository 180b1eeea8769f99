/// A record of operations: what each process called, when it called and returned, and what came back.
///
/// Operation A precedes operation B exactly when A returned before B was called;
/// equal timestamps mean the two overlap.
package struct History: Hashable, Sendable, Codable {
  /// What is known of an operation's outcome: the status a history file records.
  package typealias Status = RecordedHistory.Operation.Status

  /// One operation of a history.
  package struct Entry: Hashable, Sendable, Codable {
    /// The thread or client that made the call.
    package var process: Int
    /// The operation and its arguments.
    package var call: Scenario.Call
    /// When the operation was called.
    package var callTime: Int64
    /// When it returned; nil when its outcome is unknown.
    package var returnTime: Int64?
    /// What it returned; `null` for operations that return nothing.
    package var result: Value
    /// What is known of its outcome.
    package var status: Status

    /// Creates an entry; an `info` entry has no return time.
    package init(
      process: Int, call: Scenario.Call, callTime: Int64, returnTime: Int64?, result: Value = .null,
      status: Status = .ok
    ) {
      self.process = process
      self.call = call
      self.callTime = callTime
      self.returnTime = returnTime
      self.result = result
      self.status = status
    }
  }

  /// The operations, in any order.
  package var entries: [Entry]

  /// Creates a history from its entries.
  package init(entries: [Entry]) {
    self.entries = entries
  }
}
