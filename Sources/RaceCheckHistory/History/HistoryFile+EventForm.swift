extension HistoryFile {
  /// The header of the event form, read from the first line: the fields a document's top level has too.
  struct EventFormHeader {
    var version: Value?
    var model: Value?
    var initial: Value?
    var meta: Value?
  }

  /// The event form's header when the first line is one, nil when the file is a document; throws for a `form` no reader knows.
  ///
  /// Only a first line that names `"form"` is parsed, so a document written on one line
  /// is not read twice unless it has the field.
  static func eventFormHeader(_ bytes: [UInt8]) throws(HistoryFileError) -> EventFormHeader? {
    let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let line = Array(bytes[..<end])
    guard contains(Array("\"form\"".utf8), in: line) else { return nil }
    var scanner = JSONScanner(line)
    var header = EventFormHeader()
    var form: Value?
    do {
      guard scanner.peek() == UInt8(ascii: "{") else { return nil }
      try scanner.readObject { scanner, key in
        switch key {
        case "racecheck": header.version = try scanner.readValue(depth: 1)
        case "form": form = try scanner.readValue(depth: 1)
        case "model": header.model = try scanner.readValue(depth: 1)
        case "initial": header.initial = try scanner.readValue(depth: 1)
        case "meta": header.meta = try scanner.readValue(depth: 1)
        default: try scanner.skipValue()
        }
      }
      guard scanner.atEnd() else { return nil }
    } catch {
      // Not one whole object: a document that starts on this line, which its reader reads.
      return nil
    }
    switch form {
    case nil, .null?: return nil
    case .string("events")?: return header
    case let other?: throw .unknownForm(got: HistoryFileError.describe(other))
    }
  }

  /// Reads the event form: the header line, then one call or end a line, a final line cut short (the torn write of a crash) ignored.
  ///
  /// A call without its end is an operation of unknown outcome (`info`). Any other line
  /// that is not an event, or does not follow from the lines before it, rejects the file
  /// with its line number.
  static func readEvents(_ bytes: [UInt8], header: EventFormHeader, models: [String])
    throws(HistoryFileError) -> RecordedHistory
  {
    let model = try validatedModel(version: header.version, model: header.model, models: models)
    var pairing = HistoryEventPairing(citesLines: true)
    let endsWithNewline = bytes.last == UInt8(ascii: "\n")
    var lines = ByteLines(bytes)
    _ = lines.next()
    while let (number, range) = lines.next() {
      var scanner = JSONScanner(Array(bytes[range]))
      if scanner.atEnd() { continue }
      let event: HistoryEvent
      do {
        event = try readEvent(&scanner, line: number)
      } catch .notJSON(let line, let column, let problem) {
        // Only the last line can be cut short by a crash, and it then has no newline.
        if !endsWithNewline && range.upperBound == bytes.endIndex { break }
        throw .notJSON(line: line, column: column, problem: problem)
      }
      do {
        try pairing.add(event, line: number)
      } catch {
        throw .event(line: number, error)
      }
    }
    return RecordedHistory(
      model: model, initial: header.initial.flatMap { $0.isNull ? Value?.none : .some($0) },
      meta: header.meta, operations: pairing.finish())
  }

  /// The fields of one event line that the form defines.
  private struct EventFields {
    var id: Value?
    var process: Value?
    var op: Value?
    var args: Value?
    var call: Value?
    var `return`: Value?
    var result: Value?
    var status: Value?
  }

  /// Reads the one event on line `line`, which `scanner` holds alone.
  private static func readEvent(_ scanner: inout JSONScanner, line: Int)
    throws(HistoryFileError) -> HistoryEvent
  {
    var fields = EventFields()
    do {
      guard scanner.peek() == UInt8(ascii: "{") else {
        let value = try scanner.readValue()
        guard scanner.atEnd() else {
          throw JSONScanner.SyntaxError(
            offset: scanner.offset, problem: "expected the end of the line after the event")
        }
        throw HistoryFileError.event(
          line: line, .notAnObject(got: HistoryFileError.describe(value)))
      }
      try scanner.readObject { scanner, key in
        let value = try scanner.readValue(depth: 1)
        switch key {
        case "id": fields.id = value
        case "process": fields.process = value
        case "op": fields.op = value
        case "args": fields.args = value
        case "call": fields.call = value
        case "return": fields.return = value
        case "result": fields.result = value
        case "status": fields.status = value
        default: break
        }
      }
      guard scanner.atEnd() else {
        throw JSONScanner.SyntaxError(
          offset: scanner.offset, problem: "expected the end of the line after the event")
      }
    } catch let error as JSONScanner.SyntaxError {
      // The scanner holds the line alone, so the end it reached is the line's.
      let column = scanner.position(of: error.offset).column
      let problem = error.problem.replacing("the end of the file", with: "the end of the line")
      throw .notJSON(line: line, column: column, problem: problem)
    } catch let error as HistoryFileError {
      throw error
    } catch {
      preconditionFailure("unexpected error \(error)")
    }
    do {
      return try event(fields)
    } catch {
      throw .event(line: line, error)
    }
  }

  /// The event `fields` make: a call when it has a `call` time, else an end.
  private static func event(_ fields: EventFields) throws(HistoryFileError.EventProblem)
    -> HistoryEvent
  {
    func required(_ field: String, _ value: Value?) throws(HistoryFileError.EventProblem) -> Value {
      guard let value, !value.isNull else { throw .missingField(field) }
      return value
    }
    func wrong(_ field: String, _ expected: String, _ value: Value)
      -> HistoryFileError.EventProblem
    {
      .wrongType(field: field, expected: expected, got: HistoryFileError.describe(value))
    }
    let idValue = try required("id", fields.id)
    guard let id = idValue.intValue else { throw wrong("id", "an integer", idValue) }
    if let callValue = fields.call, !callValue.isNull {
      guard let time = callValue.intValue else { throw wrong("call", "an integer", callValue) }
      let process = try required("process", fields.process)
      switch process {
      case .int, .string: break
      default: throw wrong("process", "an integer or a string", process)
      }
      let op = try required("op", fields.op)
      guard let name = op.stringValue else { throw wrong("op", "a string", op) }
      let args = try required("args", fields.args)
      guard let arguments = args.listValue else { throw wrong("args", "an array", args) }
      return HistoryEvent(
        id: id,
        kind: .call(process: process, name: name, arguments: arguments, time: Int64(time)))
    }
    var status = RecordedHistory.Operation.Status.ok
    if let statusValue = fields.status, !statusValue.isNull {
      guard let text = statusValue.stringValue else {
        throw wrong("status", "a string", statusValue)
      }
      guard let known = RecordedHistory.Operation.Status(rawValue: text) else {
        throw .unknownStatus(text)
      }
      status = known
    }
    var time: Int64?
    if let returnValue = fields.return, !returnValue.isNull {
      guard let end = returnValue.intValue else {
        throw wrong("return", "an integer", returnValue)
      }
      guard status != .info else { throw .returnWithInfo }
      time = Int64(end)
    } else if status != .info {
      throw .missingField("return")
    }
    return HistoryEvent(
      id: id, kind: .end(status: status, time: time, result: fields.result ?? .null))
  }

  /// Whether `needle` occurs in `haystack`.
  private static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count)
    where haystack[start] == needle[0]
      && haystack[start..<start + needle.count].elementsEqual(needle)
    {
      return true
    }
    return false
  }
}
