/// Why a history could not be read: the file is missing, or its contents are rejected.
public enum HistoryInputError: Error, Hashable, Sendable, CustomStringConvertible {
  /// There is no file at the path.
  case missing(String)
  /// The path cannot be read as a file.
  case unreadable(String)
  /// The history file is rejected.
  case file(HistoryFileError)
  /// The Jepsen history is rejected.
  case jepsen(JepsenProblem)
  /// The model rejects an operation or the initial state of a history that was read.
  case model(HistoryFileError)

  /// The problem as the command line prints it after the file's path.
  public var description: String {
    switch self {
    case .missing: return "no such file"
    case .unreadable: return "cannot be read"
    case .file(let error), .model(let error): return error.description
    case .jepsen(let problem): return problem.description
    }
  }
}
