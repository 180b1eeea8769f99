extension HistoryEvent {
  /// Appends the event as one line of the event form: compact JSON, then a newline.
  ///
  /// ```
  /// {"id":7,"process":3,"op":"put","args":["k","v"],"call":1200}
  /// {"id":7,"return":1350}
  /// ```
  package func appendLine(to writer: JSONLineWriter) {
    switch kind {
    case .call(let process, let name, let arguments, let time):
      writer.appendCall(id: id, process: process, name: name, time: time) { writer in
        for (index, argument) in arguments.enumerated() {
          if index > 0 { writer.append(UInt8(ascii: ",")) }
          writer.appendValue(argument)
        }
      }
    case .end(let status, let time, let result):
      writer.appendEnd(id: id, status: status, time: time, result: result)
    }
  }

  /// The first line of the event form: the version, the form, the model, and `initial` and `meta` when given.
  ///
  /// ```
  /// {"racecheck":1,"form":"events","model":"kv","meta":{"run":"staging"}}
  /// ```
  package static func headerLine(model: String, initial: Value?, meta: Value?) -> [UInt8] {
    let writer = JSONLineWriter(capacity: 256)
    writer.append(#"{"racecheck":1,"form":"events","model":"#)
    writer.appendString(model)
    if let initial {
      writer.append(#","initial":"#)
      writer.appendValue(initial)
    }
    if let meta {
      writer.append(#","meta":"#)
      writer.appendValue(meta)
    }
    writer.append("}\n")
    return writer.bytes
  }
}

extension JSONLineWriter {
  /// Appends a call's line; `arguments` appends the arguments, separated by commas, inside the brackets.
  @inline(__always)
  package func appendCall(
    id: Int, process: Value, name: String, time: Int64, arguments: (JSONLineWriter) -> Void
  ) {
    append(#"{"id":"#)
    appendInteger(Int64(id))
    append(#","process":"#)
    appendValue(process)
    append(#","op":"#)
    appendString(name)
    append(#","args":["#)
    arguments(self)
    append(#"],"call":"#)
    appendInteger(time)
    append("}\n")
  }

  /// Appends an end's line, leaving out what the format takes as the default: a `null` result, an `ok` status.
  @inline(__always)
  package func appendEnd(
    id: Int, status: RecordedHistory.Operation.Status, time: Int64?, result: Value
  ) {
    append(#"{"id":"#)
    appendInteger(Int64(id))
    if let time {
      append(#","return":"#)
      appendInteger(time)
    }
    if !result.isNull {
      append(#","result":"#)
      appendValue(result)
    }
    switch status {
    case .ok: break
    case .fail: append(#","status":"fail""#)
    case .info: append(#","status":"info""#)
    }
    append("}\n")
  }
}
