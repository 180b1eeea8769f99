/// Why a stack's frames were left raw: the batch could not be symbolized at all, or only in part.
///
/// Symbolization never fails a report; it degrades to `module+0xoffset` frames and says why,
/// so that a user can fix the cause (install the toolchain's llvm-symbolizer, say).
package enum SymbolizationProblem: Hashable, Sendable {
  /// No llvm-symbolizer was found next to `swift` or on `PATH`.
  case toolNotFound
  /// llvm-symbolizer could not be started.
  case launchFailed(ToolProcess.Failure)
  /// llvm-symbolizer was still running at the deadline and was killed.
  case timedOut(Duration)
  /// llvm-symbolizer ended without answering every frame.
  case toolFailed(ToolProcess.Termination)
  /// llvm-symbolizer answered with something that is not its JSON output.
  case unreadableOutput

  /// A sentence for the report, after "frames not symbolized: ".
  package var message: String {
    switch self {
    case .toolNotFound:
      "llvm-symbolizer was not found next to swift or on PATH"
    case .launchFailed(let failure):
      failure.message
    case .timedOut(let timeout):
      "llvm-symbolizer did not finish within \(timeout) and was stopped"
    case .toolFailed(.exited(let status)):
      "llvm-symbolizer exited with status \(status)"
    case .toolFailed(.signaled(let signal)):
      "llvm-symbolizer was ended by signal \(signal)"
    case .toolFailed(.timedOut):
      "llvm-symbolizer did not finish in time"
    case .unreadableOutput:
      "llvm-symbolizer's output was not the JSON expected"
    }
  }
}
