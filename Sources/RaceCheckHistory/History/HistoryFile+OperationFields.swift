extension HistoryFile {
  /// The fields of one element of `operations` that the format defines, read member by member without building the object.
  ///
  /// A file of a million operations made a million dictionaries only to look seven keys
  /// up in each. Keys compare as strings do, and a key given twice keeps its last value,
  /// as in a decoded object; other members are read (so that the file must still be
  /// JSON) and dropped.
  struct OperationFields {
    /// Each field's value; nil when the object does not have it.
    var process: Value?
    var op: Value?
    var args: Value?
    var call: Value?
    var `return`: Value?
    var result: Value?
    var status: Value?

    /// Keeps `value` when `key` is one of the format's fields.
    mutating func set(_ key: String, _ value: Value) {
      switch key {
      case "process": process = value
      case "op": op = value
      case "args": args = value
      case "call": call = value
      case "return": self.return = value
      case "result": result = value
      case "status": status = value
      default: break
      }
    }

    /// The operation these fields make, every field checked as `history-format.md` asks; it is element `index` of `operations`, read at `source`.
    ///
    /// The file reader and the operation's `Codable` form both check with it, so a repro
    /// file's operations are held to the same rules as a history file's.
    func operation(index: Int, source: RecordedHistory.SourceLocation) throws(HistoryFileError)
      -> RecordedHistory.Operation
    {
      func problem(_ problem: HistoryFileError.OperationProblem) -> HistoryFileError {
        .operation(index: index, source: source, problem)
      }
      func required(_ field: String, _ value: Value?) throws(HistoryFileError) -> Value {
        guard let value else { throw problem(.missingField(field)) }
        return value
      }
      func wrong(_ field: String, _ expected: String, _ value: Value) -> HistoryFileError {
        problem(.wrongType(field: field, expected: expected, got: HistoryFileError.describe(value)))
      }
      let process = try required("process", self.process)
      switch process {
      case .int, .string: break
      default: throw wrong("process", "an integer or a string", process)
      }
      let op = try required("op", self.op)
      guard let name = op.stringValue else { throw wrong("op", "a string", op) }
      let args = try required("args", self.args)
      guard let arguments = args.listValue else { throw wrong("args", "an array", args) }
      let callValue = try required("call", self.call)
      guard let call = callValue.intValue else { throw wrong("call", "an integer", callValue) }
      var status = RecordedHistory.Operation.Status.ok
      if let statusValue = self.status, !statusValue.isNull {
        guard let text = statusValue.stringValue else {
          throw wrong("status", "a string", statusValue)
        }
        guard let known = RecordedHistory.Operation.Status(rawValue: text) else {
          throw problem(.unknownStatus(text))
        }
        status = known
      }
      var end: Int64?
      if let returnValue = self.return, !returnValue.isNull {
        guard let time = returnValue.intValue else {
          throw wrong("return", "an integer", returnValue)
        }
        guard status != .info else { throw problem(.returnWithInfo) }
        guard time >= call else {
          throw problem(.returnBeforeCall(call: Int64(call), return: Int64(time)))
        }
        end = Int64(time)
      } else if status != .info {
        throw problem(.missingField("return"))
      }
      return RecordedHistory.Operation(
        process: process, name: name, arguments: arguments, call: Int64(call), return: end,
        result: result ?? .null, status: status, source: source)
    }
  }

  /// What an element of `operations` is: an object's fields, or any other value (which is no operation).
  enum OperationElement {
    /// An object, of which only the format's fields were kept.
    case object(OperationFields)
    /// Anything but an object.
    case other(Value)
  }
}

extension JSONScanner {
  /// Reads the next value as ``readValue(depth:)`` would, keeping of an object only the fields of an operation.
  mutating func readOperationElement(depth: Int) throws(SyntaxError)
    -> HistoryFile.OperationElement
  {
    guard depth < Self.maximumDepth, peek() == UInt8(ascii: "{") else {
      return .other(try readValue(depth: depth))
    }
    var fields = HistoryFile.OperationFields()
    do {
      try readObject { scanner, key in
        fields.set(key, try scanner.readValue(depth: depth + 1))
      }
    } catch let error as SyntaxError {
      throw error
    } catch {
      preconditionFailure("only syntax errors are thrown here: \(error)")
    }
    return .object(fields)
  }
}
