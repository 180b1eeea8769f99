import Synchronization

/// One llvm-symbolizer kept running for every check of the process (``WorkerPool`` keeps it), and every answer it gave.
///
/// Shrinking a crash runs dozens of candidates, each dying in a fresh child, and each death
/// is symbolized to be named. A fresh llvm-symbolizer per death costs about 60 ms here,
/// mostly reading the modules' debug information, four times what the child's whole run
/// costs; a kept one answers a batch about modules it has read in well under a
/// millisecond, and an address asked about before costs nothing. The tool ends with the
/// session, or with the process. A tool that fails is not asked again: later batches run a fresh llvm-symbolizer
/// each, as a symbolizer without a session does.
package final class SymbolizerSession: Sendable {
  /// Where the kept tool is.
  private enum Tool {
    /// Not started: the first question starts it.
    case notStarted
    case running(ToolProcess.Conversation)
    /// It failed once and is not started again.
    case failed
  }

  private struct State {
    var tool = Tool.notStarted
    var answers: [SymbolizerQuery: LLVMSymbolizerOutput.Answer] = [:]
  }

  private let state = Mutex(State())

  /// Creates a session; its llvm-symbolizer starts with the first question.
  package init() {}

  /// Whether the kept tool failed, so that every batch now runs a fresh one.
  var hasFailed: Bool {
    state.withLock { state in
      guard case .failed = state.tool else { return false }
      return true
    }
  }

  /// The answers to `queries` (nil where none was given), asking the kept tool only about addresses not answered before.
  ///
  /// Nil as a whole when the kept tool cannot answer: the caller runs a fresh one.
  func answers(to queries: [SymbolizerQuery], llvmSymbolizer: String, timeout: Duration)
    -> [LLVMSymbolizerOutput.Answer?]?
  {
    state.withLock { state in
      let unknown = Array(Set(queries.filter { state.answers[$0] == nil }))
      guard !unknown.isEmpty else { return queries.map { state.answers[$0] } }
      let conversation: ToolProcess.Conversation
      switch state.tool {
      case .failed:
        return nil
      case .running(let running):
        conversation = running
      case .notStarted:
        guard
          let started = try? ToolProcess.Conversation(
            llvmSymbolizer, arguments: Symbolizer.arguments,
            removing: Symbolizer.hiddenEnvironment)
        else {
          state.tool = .failed
          return nil
        }
        conversation = started
        state.tool = .running(started)
      }
      guard let lines = conversation.ask(unknown.map(\.inputLine), timeout: timeout) else {
        state.tool = .failed
        return nil
      }
      for (query, line) in zip(unknown, lines) {
        // An answer whose address is not the question's is not trusted, nor kept.
        guard let answer = LLVMSymbolizerOutput.parse(line).first ?? nil,
          answer.address == query.address
        else { continue }
        state.answers[query] = answer
      }
      return queries.map { state.answers[$0] }
    }
  }
}
