extension HistoryInputError {
  /// Why a Jepsen history (EDN or log) was rejected: each case names the line and the problem.
  ///
  /// The readers throw it; ``HistoryInputError/jepsen(_:)`` carries it to the caller.
  public enum JepsenProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file holds no operation at all.
    case noOperations(format: String)
    /// A line is not valid EDN.
    case notEDN(line: Int, column: Int, problem: String)
    /// A line of an EDN history is not an op map.
    case notAMap(line: Int, got: String)
    /// A log line of `jepsen.util` does not have `<process> <type> <f> <value>`.
    case malformedLogLine(line: Int)
    /// An op lacks a field or has one of the wrong type.
    case badField(line: Int, field: String, expected: String, got: String)
    /// `:type` is not `:invoke`, `:ok`, `:fail` or `:info`.
    case unknownType(line: Int, got: String)
    /// A process completes an operation it never invoked.
    case completionWithoutInvocation(line: Int, process: String)
    /// A process completes with another `:f` than it invoked.
    case completionMismatch(line: Int, process: String, invoked: String, completed: String)
    /// A process invokes while an operation of its own is still running.
    case invocationWhileRunning(line: Int, process: String, runningSince: Int)
    /// A process invokes after an operation of its own ended with `:info`.
    case invocationAfterInfo(line: Int, process: String, infoLine: Int)
    /// The model has no operation for this `:f`, or its value does not fit.
    case unsupportedOperation(line: Int, function: String, model: String, problem: String)

    /// The problem as the command line prints it, starting with the line it is on.
    public var description: String {
      switch self {
      case .noOperations(let format): return "the file holds no \(format) operations"
      case .notEDN(let line, let column, let problem):
        return "line \(line), column \(column): not valid EDN: \(problem)"
      case .notAMap(let line, let got): return "line \(line): an op must be an EDN map, got \(got)"
      case .malformedLogLine(let line):
        return "line \(line): expected 'jepsen.util - <process> <type> <f> <value>'"
      case .badField(let line, let field, let expected, let got):
        return "line \(line): \(field) must be \(expected), got \(got)"
      case .unknownType(let line, let got):
        return "line \(line): :type must be :invoke, :ok, :fail or :info, got \(got)"
      case .completionWithoutInvocation(let line, let process):
        return "line \(line): process \(process) completes an operation it did not invoke"
      case .completionMismatch(let line, let process, let invoked, let completed):
        return "line \(line): process \(process) completes :\(completed) but invoked :\(invoked)"
      case .invocationWhileRunning(let line, let process, let since):
        return
          "line \(line): process \(process) invokes while its operation of line \(since) is still running"
      case .invocationAfterInfo(let line, let process, let infoLine):
        return
          "line \(line): process \(process) invokes after its operation ended with :info on line \(infoLine)"
      case .unsupportedOperation(let line, let function, let model, let problem):
        return "line \(line): :\(function) does not fit the \(model) model: \(problem)"
      }
    }
  }
}
