extension HistoryFile {
  /// Reads a history file, checking everything `history-format.md` asks of it except the model's vocabulary.
  ///
  /// A file whose first line is an event form's header is read as the event form
  /// (`readEvents`); any other as one document, whose operations array is read one
  /// operation at a time, so a large file is never held as a JSON tree. The model's name must be one of `models`; its operation names and
  /// arguments are checked when the checker decodes the history with the model.
  ///
  /// ```swift
  /// let history = try HistoryFile.read(Array(data), models: BuiltInModels.names)
  /// ```
  package static func read(_ bytes: [UInt8], models: [String]) throws(HistoryFileError)
    -> RecordedHistory
  {
    var scanner = JSONScanner(bytes)
    if scanner.atEnd() { throw .empty }
    if let header = try eventFormHeader(bytes) {
      return try readEvents(bytes, header: header, models: models)
    }
    var form: Value?
    var version: Value?
    var model: Value?
    var initial: Value?
    var meta: Value?
    var operations: [RecordedHistory.Operation]?
    var faults: Value?
    do {
      guard scanner.peek() == UInt8(ascii: "{") else {
        throw HistoryFileError.notAnObject(got: HistoryFileError.describe(try scanner.readValue()))
      }
      try scanner.readObject { scanner, key in
        switch key {
        case "racecheck": version = try scanner.readValue()
        case "model": model = try scanner.readValue()
        case "initial": initial = try scanner.readValue()
        case "meta": meta = try scanner.readValue()
        case "form": form = try scanner.readValue()
        case "faults": faults = try scanner.readValue()
        case "operations":
          guard scanner.peek() == UInt8(ascii: "[") else {
            throw HistoryFileError.wrongType(
              field: "operations", expected: "an array",
              got: HistoryFileError.describe(try scanner.readValue()))
          }
          var read: [RecordedHistory.Operation] = []
          try scanner.readArray { scanner, index in
            let line = scanner.lineOfNextValue()
            read.append(
              try operation(try scanner.readOperationElement(depth: 1), index: index, line: line))
          }
          operations = read
        default: try scanner.skipValue()
        }
      }
      guard scanner.atEnd() else {
        throw JSONScanner.SyntaxError(
          offset: scanner.offset, problem: "expected the end of the file after the history object")
      }
    } catch let error as JSONScanner.SyntaxError {
      let position = scanner.position(of: error.offset)
      throw .notJSON(line: position.line, column: position.column, problem: error.problem)
    } catch let error as HistoryFileError {
      throw error
    } catch {
      preconditionFailure("unexpected error \(error)")
    }
    switch form {
    case nil, .null?: break
    case .string("events")?: throw .eventHeaderNotFirstLine
    case let other?: throw .unknownForm(got: HistoryFileError.describe(other))
    }
    let name = try validatedModel(version: version, model: model, models: models)
    guard let operations else { throw .missingField("operations") }
    try checkProcesses(operations)
    return RecordedHistory(
      model: name, initial: initial.flatMap { $0.isNull ? Value?.none : .some($0) }, meta: meta,
      operations: operations, faults: try readFaults(faults))
  }

  /// The `faults` array's elements, every field checked; none when the field is absent or null.
  private static func readFaults(_ faults: Value?) throws(HistoryFileError) -> [RecordedHistory
    .Fault]
  {
    switch faults {
    case nil, .null?: return []
    case .list(let elements)?:
      var read: [RecordedHistory.Fault] = []
      for (index, element) in elements.enumerated() {
        do throws(HistoryFileError.FaultProblem) {
          read.append(try RecordedHistory.Fault(json: element))
        } catch {
          throw .fault(index: index, error)
        }
      }
      return read
    case let other?:
      throw .wrongType(field: "faults", expected: "an array", got: HistoryFileError.describe(other))
    }
  }

  /// The model's name, once the version is 1 and the model one of `models`: the header's checks, in either form.
  static func validatedModel(version: Value?, model: Value?, models: [String])
    throws(HistoryFileError) -> String
  {
    guard let version else { throw .missingField("racecheck") }
    guard version == 1 else { throw .unsupportedVersion(HistoryFileError.describe(version)) }
    guard let model else { throw .missingField("model") }
    guard let name = model.stringValue else {
      throw .wrongType(field: "model", expected: "a string", got: HistoryFileError.describe(model))
    }
    guard models.contains(name) else { throw .unknownModel(name, known: models) }
    return name
  }

  /// One operation of the array, every field checked.
  private static func operation(_ element: OperationElement, index: Int, line: Int)
    throws(HistoryFileError) -> RecordedHistory.Operation
  {
    let source = RecordedHistory.SourceLocation.element(line: line)
    switch element {
    case .object(let fields): return try fields.operation(index: index, source: source)
    case .other(let value):
      throw .operation(
        index: index, source: source, .notAnObject(got: HistoryFileError.describe(value)))
    }
  }

  /// Rejects two operations of one process that overlap in time, and anything a process calls after an `info` one.
  static func checkProcesses(_ operations: [RecordedHistory.Operation]) throws(HistoryFileError) {
    var byProcess: [Value: [Int]] = [:]
    for index in operations.indices {
      byProcess[operations[index].process, default: []].append(index)
    }
    var first: (index: Int, problem: HistoryFileError.OperationProblem)?
    for (process, indices) in byProcess {
      let sorted = indices.sorted { (operations[$0].call, $0) < (operations[$1].call, $1) }
      for (earlier, later) in zip(sorted, sorted.dropFirst()) {
        let before = operations[earlier]
        let after = operations[later]
        if let end = before.return, end < after.call { continue }
        let name = process.stringValue.map(Value.quoted) ?? process.description
        if first == nil || later < first!.index {
          first = (
            later,
            .overlaps(
              process: name, other: earlier, otherSource: before.source, otherCall: before.call,
              otherReturn: before.return, call: after.call)
          )
        }
        break
      }
    }
    if let first {
      throw .operation(index: first.index, source: operations[first.index].source, first.problem)
    }
  }
}
