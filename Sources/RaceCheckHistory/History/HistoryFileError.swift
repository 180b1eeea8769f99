/// Why a history file was rejected: each case names the operation's index, the line where it starts and the problem, as `history-format.md` asks.
///
/// ```
/// operations[12] (line 14): 'return' (40) is before 'call' (55)
/// ```
public enum HistoryFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file has no bytes, or only whitespace.
  case empty
  /// The bytes are not JSON.
  case notJSON(line: Int, column: Int, problem: String)
  /// The document is JSON but not an object.
  case notAnObject(got: String)
  /// A top-level field the format requires is absent.
  case missingField(String)
  /// A top-level field has the wrong type.
  case wrongType(field: String, expected: String, got: String)
  /// `racecheck` names a version this reader does not know.
  case unsupportedVersion(String)
  /// `model` names no built-in or registered model.
  case unknownModel(String, known: [String])
  /// `initial` does not have the model's shape.
  case initialState(ModelError)
  /// One operation is malformed; `source` says where it is in its file, and is cited with the index.
  case operation(index: Int, source: RecordedHistory.SourceLocation, OperationProblem)
  /// One element of `faults` is malformed.
  case fault(index: Int, FaultProblem)

  /// What is wrong with one element of `faults`.
  public enum FaultProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The element is not a JSON object.
    case notAnObject(got: String)
    /// A field the format requires is absent.
    case missingField(String)
    /// A field has the wrong type or an unknown value.
    case wrongType(field: String, expected: String, got: String)
    /// `end` is before `start`.
    case endBeforeStart(start: Int64, end: Int64)

    /// The problem as the command line prints it, after the element's index.
    public var description: String {
      switch self {
      case .notAnObject(let got): return "must be an object, got \(got)"
      case .missingField(let field): return "'\(field)' is missing"
      case .wrongType(let field, let expected, let got):
        return "'\(field)' must be \(expected), got \(got)"
      case .endBeforeStart(let start, let end): return "'end' (\(end)) is before 'start' (\(start))"
      }
    }
  }
  /// `form` names no form of the file: only the event form has one, `"events"`.
  case unknownForm(got: String)
  /// `form` is `"events"` in a header that is not the whole first line, where the event form's must be.
  case eventHeaderNotFirstLine
  /// One line of the event form is malformed or does not follow from the lines before it.
  case event(line: Int, EventProblem)

  /// What is wrong with one operation.
  public enum OperationProblem: Hashable, Sendable, CustomStringConvertible {
    /// The operation is not a JSON object.
    case notAnObject(got: String)
    /// A field the format requires is absent.
    case missingField(String)
    /// A field has the wrong type.
    case wrongType(field: String, expected: String, got: String)
    /// The model rejects its name or arguments.
    case model(ModelError)
    /// It returned before it was called.
    case returnBeforeCall(call: Int64, return: Int64)
    /// An `info` operation has a `return`, or another has none.
    case returnWithInfo
    /// `status` is not `ok`, `fail` or `info`.
    case unknownStatus(String)
    /// Its process already had an operation running at its call: `other`, which stands at `otherSource`.
    case overlaps(
      process: String, other: Int, otherSource: RecordedHistory.SourceLocation, otherCall: Int64,
      otherReturn: Int64?, call: Int64)

    /// The problem as an error message states it after the operation's citation.
    public var description: String {
      switch self {
      case .notAnObject(let got): return "must be an object, got \(got)"
      case .missingField(let field): return "'\(field)' is missing"
      case .wrongType(let field, let expected, let got):
        return "'\(field)' must be \(expected), got \(got)"
      case .model(let error): return error.description
      case .returnBeforeCall(let call, let end):
        return "'return' (\(end)) is before 'call' (\(call))"
      case .returnWithInfo: return "'return' must be absent when 'status' is \"info\""
      case .unknownStatus(let status):
        return "'status' must be \"ok\", \"fail\" or \"info\", got \(Value.quoted(status))"
      case .overlaps(
        let process, let other, let otherSource, let otherCall, let otherReturn, let call):
        let running =
          otherReturn.map { "has not returned (call \(otherCall), return \($0))" }
          ?? "has an unknown outcome (status \"info\", call \(otherCall)), so the process invokes nothing after it"
        return
          "process \(process) calls at \(call) while its \(otherSource.citation(index: other)) \(running)"
      }
    }
  }

  /// The rejection as the command line prints it, citing the operation's index and line when it is one operation's.
  public var description: String {
    switch self {
    case .empty: return "the file is empty"
    case .notJSON(let line, let column, let problem):
      return "not valid JSON at line \(line), column \(column): \(problem)"
    case .notAnObject(let got): return "a history file is a JSON object, got \(got)"
    case .missingField(let field): return "'\(field)' is missing"
    case .wrongType(let field, let expected, let got):
      return "'\(field)' must be \(expected), got \(got)"
    case .unsupportedVersion(let version):
      return "history format version \(version) is not supported (this racecheck reads version 1)"
    case .unknownModel(let name, let known):
      return "unknown model \(Value.quoted(name)); the models are \(known.joined(separator: ", "))"
    case .initialState(let error): return "'initial': \(error)"
    case .operation(let index, let source, let problem):
      return "\(source.citation(index: index)): \(problem)"
    case .fault(let index, let problem): return "faults[\(index)]: \(problem)"
    case .unknownForm(let got):
      return "'form' must be \"events\" (or absent, for the document form), got \(got)"
    case .eventHeaderNotFirstLine:
      return "the event form's header (\"form\": \"events\") must be the whole first line"
    case .event(let line, let problem): return "line \(line): \(problem)"
    }
  }

  /// A short account of a value for messages: its JSON, cut to 40 characters.
  static func describe(_ value: Value) -> String {
    let text = value.description
    return text.count <= 40 ? text : String(text.prefix(37)) + "..."
  }
}
