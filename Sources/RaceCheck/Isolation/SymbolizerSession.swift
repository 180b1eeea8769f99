import Synchronization

/// One llvm-symbolizer kept running for a whole check, and every answer it gave.
///
/// Shrinking a crash runs dozens of candidates, each dying in a fresh child, and each death
/// is symbolized to be named. A fresh llvm-symbolizer per death costs about 60 ms here,
/// mostly reading the modules' debug information, four times what the child's whole run
/// costs; a kept one answers a batch about modules it has read in well under a
/// millisecond, and an address asked about before costs nothing. The tool ends with the
/// session. A tool that fails is not asked again: later batches run a fresh llvm-symbolizer
/// each, as a symbolizer without a session does.
package final class SymbolizerSession: Sendable {
  private struct State {
    /// The running tool, nil before the first question and after a failure.
    var tool: ToolProcess.Conversation?
    /// Whether the tool failed once: it is not started again.
    var failed = false
    var answers: [SymbolizerQuery: LLVMSymbolizerOutput.Answer] = [:]
  }

  private let state = Mutex(State())

  /// Creates a session; its llvm-symbolizer starts with the first question.
  package init() {}

  /// The answers to `queries` (nil where none was given), asking the kept tool only about addresses not answered before.
  ///
  /// Nil as a whole when the kept tool cannot answer: the caller runs a fresh one.
  func answers(
    to queries: [SymbolizerQuery], llvmSymbolizer: String, arguments: [String], timeout: Duration
  ) -> [LLVMSymbolizerOutput.Answer?]? {
    state.withLock { state in
      let unknown = Array(Set(queries.filter { state.answers[$0] == nil }))
      if !unknown.isEmpty {
        guard !state.failed else { return nil }
        if state.tool == nil {
          state.tool = try? ToolProcess.Conversation(
            llvmSymbolizer, arguments: arguments, removing: ["DEBUGINFOD_URLS"])
        }
        let lines = state.tool?.ask(unknown.map(\.inputLine), timeout: timeout)
        guard let lines else {
          state.tool = nil
          state.failed = true
          return nil
        }
        for (query, line) in zip(unknown, lines) {
          // An answer whose address is not the question's is not trusted, nor kept.
          guard let answer = LLVMSymbolizerOutput.parse(line).first ?? nil,
            answer.address == query.address
          else { continue }
          state.answers[query] = answer
        }
      }
      return queries.map { state.answers[$0] }
    }
  }
}
