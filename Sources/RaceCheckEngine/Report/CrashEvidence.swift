/// What racecheck saw of a crash, a hang or an early exit of the isolated child running the code under test.
package struct CrashEvidence: Sendable, Codable {
  /// How the child ended.
  package enum Kind: String, Sendable, Codable {
    /// A signal killed it (a Swift trap is SIGILL, a bad access SIGSEGV).
    case crash
    /// An invocation did not finish before its deadline; racecheck killed it.
    case hang
    /// It exited, or stopped talking, before it reported.
    case exit
  }

  /// A call a thread had started and not finished when the child died.
  package struct InFlightCall: Sendable, Codable, Hashable {
    /// The runner thread making it.
    package var thread: Int
    /// The call.
    package var call: Scenario.Call
    /// The call's position in the scenario's history (init, then each thread, then post), when known.
    package var index: Int?
  }

  /// How the child ended.
  package var kind: Kind
  /// The signal's name, such as `SIGILL`, for a crash.
  package var signal: String?
  /// The runtime's failure message, such as "Index out of range", when the stack carries one.
  package var message: String?
  /// The crashing thread: a runner thread's number, or nil for a thread racecheck did not start.
  package var runnerThread: Int?
  /// The crashing thread's name, as the kernel knows it.
  package var threadName: String?
  /// The invocation of the scenario that was running, counted from 0.
  package var invocation: Int?
  /// The calls in flight when the child died.
  package var inFlight: [InFlightCall]
  /// The crashing thread's stack, symbolized, user frames first and runtime frames folded.
  package var stack: String
  /// For a hang, every thread's stack.
  package var threadStacks: [String]
  /// The names of every function on the crashing thread's stack, innermost first.
  package var functions: [String]
  /// Whose code the crash was in: the layer of the innermost frame that is not the Swift runtime or the C library.
  ///
  /// `user` for the code under test, `racecheck` when racecheck's own code trapped on a
  /// value the code under test returned, `libdispatch` or `Foundation` otherwise.
  package var layer: String? = nil
  /// What the child's exit looked like when it did not crash: its status, or what it wrote instead of a report.
  package var detail: String?
  /// The end of what the child wrote to standard error, such as the runtime's own messages.
  package var standardError: String?
}

extension CrashEvidence {
  /// Whether the child died of a signal that memory corruption raises, not of a Swift trap (SIGILL).
  ///
  /// A bad access is SIGSEGV or SIGBUS; the allocator and the Swift runtime abort (SIGABRT)
  /// when they find their own structures corrupted (a double free, a freed object retained).
  /// Safe Swift run on one thread raises none of them.
  package var isMemoryCorruption: Bool {
    kind == .crash && ["SIGSEGV", "SIGBUS", "SIGABRT"].contains(signal ?? "")
  }

  /// How the child ended, as a report's first line says it: `crashed (SIGILL: Index out of range)`.
  package var outcome: String {
    switch kind {
    case .crash: "crashed (\(signal ?? "signal")\(message.map { ": \($0)" } ?? ""))"
    case .hang: "hung: \(detail ?? "an invocation made no progress for its deadline")"
    case .exit: "ended its isolated child without a report: \(detail ?? "")"
    }
  }
}

extension CrashEvidence {
  /// A call that did not return within its timeout outside an isolated child: the code's hang, seen by the thread that waited.
  ///
  /// The process goes on, so no thread's stack is taken: an isolated check takes them all.
  static func unreturnedCall(_ timedOut: CompletionTimeout, thread: Int, index: Int)
    -> CrashEvidence
  {
    CrashEvidence(
      kind: .hang, signal: nil, message: nil, runnerThread: nil, threadName: nil, invocation: nil,
      inFlight: [InFlightCall(thread: thread, call: timedOut.call, index: index)],
      stack:
        "(no stacks: outside an isolated child the check goes on; an isolated check shows every thread's)",
      threadStacks: [], functions: [], detail: timedOut.description)
  }
}
