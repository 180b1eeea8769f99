extension HistoryFileError {
  /// What is wrong with one line of the event form: its fields, or how it follows from the lines before it.
  ///
  /// ```
  /// line 9: id 4 ends, but no line before calls it
  /// line 12: process 3 calls while its call of line 10 (id 6) has not ended
  /// ```
  public enum EventProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line is JSON but not an object.
    case notAnObject(got: String)
    /// A field the line needs is absent.
    case missingField(String)
    /// A field has the wrong type.
    case wrongType(field: String, expected: String, got: String)
    /// `status` is not `ok`, `fail` or `info`.
    case unknownStatus(String)
    /// An end whose `status` is `info` has a `return`, or another end has none.
    case returnWithInfo
    /// An end returns before its call, made on `callLine`.
    case returnBeforeCall(call: Int64, return: Int64, callLine: Int)
    /// A call reuses the id of the call on `firstLine`.
    case duplicateID(id: Int, firstLine: Int)
    /// An end names an id no earlier line calls.
    case endWithoutCall(id: Int)
    /// An end names an id that already ended, on `endLine`.
    case endedTwice(id: Int, endLine: Int)
    /// A process calls while its call on `line` (with `id`) has not ended.
    case callWhileRunning(process: String, id: Int, line: Int)
    /// A process calls after one of its calls ended `info`, on `infoLine`.
    case callAfterInfo(process: String, infoLine: Int)
    /// A process calls at `call`, not after its previous call returned at `previousReturn`, on `returnLine`.
    case callBeforeReturn(process: String, call: Int64, previousReturn: Int64, returnLine: Int)

    /// The problem as an error message states it after the line.
    public var description: String {
      switch self {
      case .notAnObject(let got): return "an event must be a JSON object, got \(got)"
      case .missingField(let field): return "'\(field)' is missing"
      case .wrongType(let field, let expected, let got):
        return "'\(field)' must be \(expected), got \(got)"
      case .unknownStatus(let status):
        return "'status' must be \"ok\", \"fail\" or \"info\", got \(Value.quoted(status))"
      case .returnWithInfo:
        return "an end has a 'return' unless its 'status' is \"info\", and then it has none"
      case .returnBeforeCall(let call, let end, let callLine):
        return "'return' (\(end)) is before the 'call' (\(call)) of line \(callLine)"
      case .duplicateID(let id, let firstLine):
        return "id \(id) is already the id of the call of line \(firstLine)"
      case .endWithoutCall(let id): return "id \(id) ends, but no line before calls it"
      case .endedTwice(let id, let endLine):
        return "id \(id) ends again; it ended on line \(endLine)"
      case .callWhileRunning(let process, let id, let line):
        return "process \(process) calls while its call of line \(line) (id \(id)) has not ended"
      case .callAfterInfo(let process, let infoLine):
        return
          "process \(process) calls after its call that ended \"info\" on line \(infoLine), so it calls nothing more"
      case .callBeforeReturn(let process, let call, let previousReturn, let returnLine):
        return
          "process \(process) calls at \(call), not after its previous call returned at \(previousReturn) (line \(returnLine))"
      }
    }
  }
}
