/// One event as the recorder buffers it: a call or an end, with up to two arguments held inline.
///
/// The history module's `HistoryEvent` holds its arguments in an array, one allocation a
/// call on the calling thread and one free on the writer's; most calls have two arguments
/// or fewer, and these are stored in the event itself. ``historyEvent`` converts for a
/// history in memory.
@usableFromInline
struct RecordedEvent: Sendable {
  /// What happened.
  @usableFromInline
  enum Kind: Sendable {
    /// `process` called `name` with `arguments` at `time`.
    case call(process: Value, name: String, arguments: RecordedArguments, time: Int64)
    /// The call ended with `status`: at `time` unless it is `info`, with `result`.
    case end(status: RecordedHistory.Operation.Status, time: Int64?, result: Value)
  }

  /// The number pairing the call with its end.
  @usableFromInline var id: Int
  /// The clock reading the event is ordered by: the call's time, or the end's, read even for an `info` end.
  @usableFromInline var order: Int64
  /// Whether the event is a call, which comes before an end of the same `order`.
  @usableFromInline var isCall: Bool
  /// The call or the end.
  @usableFromInline var kind: Kind

  @usableFromInline
  init(id: Int, order: Int64, kind: Kind) {
    self.id = id
    self.order = order
    if case .call = kind { isCall = true } else { isCall = false }
    self.kind = kind
  }

  /// The event as the history module's readers hold it.
  var historyEvent: HistoryEvent {
    switch kind {
    case .call(let process, let name, let arguments, let time):
      return HistoryEvent(
        id: id,
        kind: .call(process: process, name: name, arguments: arguments.values, time: time))
    case .end(let status, let time, let result):
      return HistoryEvent(id: id, kind: .end(status: status, time: time, result: result))
    }
  }

  /// Appends the event's line of the event form.
  func appendLine(to writer: JSONLineWriter) {
    switch kind {
    case .call(let process, let name, let arguments, let time):
      writer.appendCall(id: id, process: process, name: name, time: time) { writer in
        switch arguments {
        case .none: break
        case .one(let first): writer.appendValue(first)
        case .two(let first, let second):
          writer.appendValue(first)
          writer.append(UInt8(ascii: ","))
          writer.appendValue(second)
        case .many(let values):
          for (index, value) in values.enumerated() {
            if index > 0 { writer.append(UInt8(ascii: ",")) }
            writer.appendValue(value)
          }
        }
      }
    case .end(let status, let time, let result):
      writer.appendEnd(id: id, status: status, time: time, result: result)
    }
  }
}

/// A call's arguments: up to two inline, more in an array.
@usableFromInline
enum RecordedArguments: Sendable {
  case none
  case one(Value)
  case two(Value, Value)
  case many([Value])

  /// The arguments in order.
  var values: [Value] {
    switch self {
    case .none: return []
    case .one(let first): return [first]
    case .two(let first, let second): return [first, second]
    case .many(let values): return values
    }
  }
}
