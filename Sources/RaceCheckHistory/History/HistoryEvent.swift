/// One line of the event form of a history file after its header: a call, or the end of the call with the same id.
///
/// A recorder appends one at each call and one at each end, so that a process killed
/// mid-run leaves every call it started in the file; `HistoryEventPairing` joins them
/// into operations, and a call without its end becomes an `info` one.
///
/// ```swift
/// let call = HistoryEvent(id: 7, kind: .call(process: 3, name: "put", arguments: ["k", "v"], time: 100))
/// let end = HistoryEvent(id: 7, kind: .end(status: .ok, time: 180, result: .null))
/// ```
package struct HistoryEvent: Hashable, Sendable {
  /// What happened.
  package enum Kind: Hashable, Sendable {
    /// `process` called operation `name` with `arguments` at `time`.
    case call(process: Value, name: String, arguments: [Value], time: Int64)
    /// The call ended with `status`: at `time` unless it is `info`, with `result` (`null` for none).
    case end(status: RecordedHistory.Operation.Status, time: Int64?, result: Value)
  }

  /// The number that pairs a call with its end: unique to one call in a file.
  package var id: Int
  /// The call or the end.
  package var kind: Kind

  /// Creates an event.
  package init(id: Int, kind: Kind) {
    self.id = id
    self.kind = kind
  }
}
