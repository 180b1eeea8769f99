extension RecordedHistory.Operation: Codable {
  /// The members of an operation's object in a history file, in the order `history-format.md` lists them.
  enum CodingKeys: String, CodingKey {
    case process, op, args, call, `return`, result, status
  }

  /// The members a history file writes for the operation, in the format's order; `return`, `result` and `status` only when they say something.
  ///
  /// A missing `return` is an unknown outcome, a missing `result` is `null` and a missing
  /// `status` is `ok`, so the file leaves them out, as racecheck always has.
  var members: [(key: CodingKeys, value: Value)] {
    var members: [(key: CodingKeys, value: Value)] = [
      (.process, process), (.op, .string(name)), (.args, .list(arguments)),
      (.call, .int(Int(call))),
    ]
    if let end = self.return { members.append((.return, .int(Int(end)))) }
    if !result.isNull { members.append((.result, result)) }
    if status != .ok { members.append((.status, .string(status.rawValue))) }
    return members
  }

  /// Writes the operation as one element of a history file's `operations`.
  ///
  /// ```swift
  /// let json = try JSONEncoder().encode(operation)  // {"process":0,"op":"append","args":[5],"call":100,"return":180}
  /// ```
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    for (key, value) in members { try container.encode(value, forKey: key) }
  }

  /// Reads one element of a history file's `operations`, checked as `racecheck check` checks it; the source is ``RecordedHistory/SourceLocation/unknown``.
  ///
  /// Members the format does not define are ignored. What the format rejects in one
  /// operation (a `return` before its `call`, an `info` operation that returned, …) throws
  /// `DecodingError.dataCorrupted` with the problem's description.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    var fields = HistoryFile.OperationFields()
    for key in container.allKeys {
      fields.set(key.stringValue, try container.decode(Value.self, forKey: key))
    }
    do {
      self = try fields.operation(index: decoder.codingPath.last?.intValue ?? 0, source: .unknown)
    } catch {
      // The coding path says which operation it is; the message says what is wrong with it.
      var problem = error.description
      if case .operation(_, _, let operationProblem) = error {
        problem = operationProblem.description
      }
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: problem))
    }
  }
}
