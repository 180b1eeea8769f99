/// A record of operations: what each process called, when it called and returned, and what came back.
///
/// Operation A precedes operation B exactly when A returned before B was called;
/// equal timestamps mean the two overlap.
public struct History: Hashable, Sendable, Codable {
  /// What is known of an operation's outcome: the status a history file records.
  public typealias Status = RecordedHistory.Operation.Status

  /// One operation of a history.
  public struct Entry: Hashable, Sendable, Codable {
    /// The thread or client that made the call.
    public var process: Int
    /// The operation and its arguments.
    public var call: Scenario.Call
    /// When the operation was called.
    public var callTime: Int64
    /// When it returned; nil when its outcome is unknown.
    public var returnTime: Int64?
    /// What it returned; `null` for operations that return nothing.
    public var result: Value
    /// What is known of its outcome.
    public var status: Status

    /// Creates an entry; an `info` entry has no return time.
    public init(
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
  public var entries: [Entry]

  /// Creates a history from its entries.
  public init(entries: [Entry]) {
    self.entries = entries
  }
}
