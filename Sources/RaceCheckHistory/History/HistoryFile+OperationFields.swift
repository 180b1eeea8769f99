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
