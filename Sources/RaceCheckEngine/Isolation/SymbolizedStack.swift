/// A crashed or stopped thread's stack, symbolized: its frames, the runtime's message, and what could not be done.
///
/// ```swift
/// let stack = Symbolizer().symbolize(frames, firstFrameIsFault: true)
/// stack.failureMessage         // "Index out of range"
/// print(stack.render())        // the user's frames, the rest folded
/// ```
package struct SymbolizedStack: Hashable, Sendable {
  /// The frames, innermost first; inlined frames come before the frame they were inlined into.
  package var frames: [SymbolizedFrame]
  /// The message of the Swift runtime trap that stopped the thread (`Index out of range`), if it was one.
  ///
  /// Release builds print no "Fatal error" line; the compiler keeps the message only as the
  /// name of an inlined frame, `Swift runtime failure: …`, which becomes this instead of a frame.
  package var failureMessage: String?
  /// Why some or all frames are raw, when they are.
  package var problem: SymbolizationProblem?

  /// Creates a stack from frames already symbolized.
  package init(
    frames: [SymbolizedFrame], failureMessage: String? = nil, problem: SymbolizationProblem? = nil
  ) {
    self.frames = frames
    self.failureMessage = failureMessage
    self.problem = problem
  }

  /// The innermost frame of the user's own code: where a reader starts.
  package var firstUserFrame: SymbolizedFrame? {
    frames.first { $0.kind == .user && $0.isSymbolized }
  }
}
