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
  ///
  /// A SIGABRT from the code's own failed `assert` (the C library prints `Assertion … failed`)
  /// is the assertion, not corruption.
  package var isMemoryCorruption: Bool {
    kind == .crash && ["SIGSEGV", "SIGBUS", "SIGABRT"].contains(signal ?? "")
      && failedAssertion == nil
  }

  /// The C library's message for the code's failed `assert`, such as `race.c:12: check: Assertion `b == 1' failed.`, when the child died of one.
  package var failedAssertion: String? {
    guard kind == .crash, signal == "SIGABRT" else { return nil }
    return Self.failedAssertion(in: standardError ?? "")
  }

  /// The last line of `text` that reports a failed C `assert`, without the program's name.
  static func failedAssertion(in text: String) -> String? {
    guard
      let line = text.split(separator: "\n").last(where: {
        $0.contains("Assertion `") && $0.hasSuffix("failed.")
      })
    else { return nil }
    // glibc writes `program: file:line: function: Assertion `condition' failed.`
    let parts = line.split(separator: ": ", maxSplits: 1)
    return String(parts.count == 2 && !parts[0].contains("`") ? parts[1] : line)
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
