/// Turns Jepsen's event stream — an `:invoke` line, later its completion — into recorded operations.
///
/// Times are line numbers, which keeps Jepsen's real-time order. The meaning of each
/// completion follows the format: `:ok` completed with the completion's value; `:info`
/// has an unknown outcome (the process never invokes again); `:fail` did not take effect —
/// except in etcd logs, where `:fail :cas` is a completed compare-and-set that returned
/// false and `:fail :read` a read whose value is unknown. An invocation that never
/// completes has an unknown outcome.
struct JepsenEventPairing {
  /// How `:fail` is read.
  enum FailMeaning {
    /// Knossos' meaning: the operation did not take effect.
    case didNotHappen
    /// The etcd logs' meaning: a `:cas` returned false; a `:read` has an unknown value.
    case etcdLog
  }

  /// One line of the history.
  struct Event {
    var line: Int
    /// Its process: the readers skip ops of any other kind of process (Jepsen's `:nemesis`).
    var process: Int
    var type: String
    var function: String
    var key: EDNValue?
    var value: EDNValue
  }

  let model: String
  let failMeaning: FailMeaning
  private var running: [Int: Event] = [:]
  private var ended: [Int: Int] = [:]
  private(set) var operations: [RecordedHistory.Operation] = []

  init(model: String, failMeaning: FailMeaning) {
    self.model = model
    self.failMeaning = failMeaning
  }

  /// Makes room for `count` operations at once, so that a long history is not copied as it grows.
  mutating func reserveCapacity(_ count: Int) {
    operations.reserveCapacity(count)
  }

  mutating func add(_ event: consuming Event) throws(HistoryInputError.JepsenProblem) {
    let (process, line) = (event.process, event.line)
    switch event.type {
    case "invoke":
      if let since = running[process]?.line {
        throw .invocationWhileRunning(line: line, process: String(process), runningSince: since)
      }
      if let infoLine = ended[process] {
        throw .invocationAfterInfo(line: line, process: String(process), infoLine: infoLine)
      }
      // Moved, not copied, as the completion below is: an event holds two values and two names.
      running[process] = consume event
    case "ok", "fail", "info":
      guard let invocation = running.removeValue(forKey: process) else {
        throw .completionWithoutInvocation(line: line, process: String(process))
      }
      guard invocation.function == event.function else {
        throw .completionMismatch(
          line: line, process: String(process), invoked: invocation.function,
          completed: event.function)
      }
      if event.type == "info" { ended[process] = line }
      operations.append(try operation(invocation, completion: consume event))
    default:
      throw .unknownType(line: event.line, got: ":" + event.type)
    }
  }

  /// The operations, with every invocation that never completed as of unknown outcome.
  mutating func finish() throws(HistoryInputError.JepsenProblem) -> [RecordedHistory.Operation] {
    for invocation in running.values.sorted(by: { $0.line < $1.line }) {
      operations.append(try operation(invocation, completion: nil))
    }
    running = [:]
    // In place, not into a copy: a history of a million operations is some 200 MB. Most
    // histories (any whose operations never overlap) are already in order.
    if zip(operations, operations.dropFirst()).contains(where: { $0.call > $1.call }) {
      operations.sort { $0.call < $1.call }
    }
    return operations
  }

  private func operation(_ invocation: Event, completion: Event?) throws(HistoryInputError
    .JepsenProblem)
    -> RecordedHistory.Operation
  {
    var status: RecordedHistory.Operation.Status
    switch completion?.type {
    case "ok": status = .ok
    case "fail": status = .fail
    default: status = .info
    }
    let function = invocation.function
    var result: Value = .null
    // A `:key` comes first among the arguments, in an array sized for the rest: inserting
    // it afterwards grew every array once, and room to spare costs a million reads 10 MB.
    func keyThenRoom(for count: Int) -> [Value] {
      guard let key = invocation.key else { return [] }
      var arguments: [Value] = []
      arguments.reserveCapacity(count + 1)
      arguments.append(key.value.stringValue.map(Value.string) ?? .string(key.text))
      return arguments
    }
    var arguments: [Value]
    let invoked = invocation.value
    // Reads carry nil when invoked and their value when completed; Knossos's histories also
    // invoke some reads with a value, which only the completion's value settles.
    let isRead = invoked == .null || function == "read"
    switch (model, function) {
    case ("cas-register", "cas"), ("register", "cas"):
      guard case .list(let pair) = invoked, pair.count == 2 else {
        throw .unsupportedOperation(
          line: invocation.line, function: function, model: model,
          problem: "its value must be a vector [expected new], got \(invoked.text)")
      }
      arguments = keyThenRoom(for: 2)
      arguments.append(contentsOf: pair.lazy.map(\.value))
      if status == .ok {
        result = true
      } else if status == .fail && failMeaning == .etcdLog {
        status = .ok
        result = false
      }
    default:
      if isRead {
        arguments = keyThenRoom(for: 0)
        if status == .ok { result = completion?.value.value ?? .null }
        if status == .fail && failMeaning == .etcdLog { status = .info }
      } else if case .list(let elements) = invoked, model != "kv" {
        arguments = keyThenRoom(for: elements.count)
        arguments.append(contentsOf: elements.lazy.map(\.value))
      } else {
        arguments = keyThenRoom(for: 1)
        arguments.append(invoked.value)
      }
    }
    // The kv model reads an absent key as "", which Jepsen writes as nil.
    if model == "kv", function == "get", status == .ok, result.isNull { result = "" }
    return RecordedHistory.Operation(
      process: .int(invocation.process), name: function, arguments: arguments,
      call: Int64(invocation.line),
      return: status == .info ? nil : completion.map { Int64($0.line) },
      result: result, status: status,
      source: .event(invocation: invocation.line, completion: completion?.line))
  }
}
