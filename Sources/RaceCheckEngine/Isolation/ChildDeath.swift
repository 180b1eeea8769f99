import CRaceCheckInterposer
import Foundation

/// Everything the parent learned from a worker child that died, or was killed hung, while it ran a request.
struct ChildDeath {
  /// How the child ended.
  var termination: ChildProcess.Termination
  /// Whether the parent killed it for making no progress.
  var hung: Bool
  /// For a hung child: what made it hung, such as the call that did not return within its timeout.
  var hangDetail: String? = nil
  /// The crash and stack records it wrote.
  var records: [CrashRecord]
  /// What the flight recorder held when it ended: the invocation and the calls in flight.
  var snapshot: FlightRecorder.Snapshot
  /// What it wrote to standard error while it ran the request.
  var standardError: String
  /// What it wrote on its message pipe that was not a message, such as text from an exit path.
  var strayOutput: String
  /// In a `--sanitize=thread` build: the first race Thread Sanitizer reported in the invocation that died.
  var sanitizerReport: rc_race_record? = nil

  /// The crash record the crash handler wrote, if it wrote one.
  var crashRecord: CrashRecord? { records.first { $0.kind == .crash } }

  /// The signal that killed a child the crash handler saw nothing of: a kill from outside (SIGKILL, the OOM killer), not the code under test.
  var outsideSignal: Int32? {
    guard !hung, crashRecord == nil, case .signaled(let signal) = termination,
      [SIGKILL, SIGTERM, SIGINT, SIGHUP, SIGQUIT].contains(signal)
    else { return nil }
    return signal
  }

  /// The signal that ended the child, for a crash.
  var signal: Int32? {
    guard !hung, case .signaled(let signal) = termination else { return nil }
    return signal
  }

  /// racecheck's own crash, when the death proves one: never a verdict on the code under test.
  ///
  /// Proven, not guessed: the crashing thread was in the scheduler's mode (running a hook's
  /// bookkeeping, not code under test), and the innermost frame of its stack outside the
  /// Swift runtime and the C library is racecheck's. A subject's `deinit` that the scheduler's
  /// release of a block runs, say, has a user frame innermost and stays the subject's.
  func internalFault(symbolizer: Symbolizer) -> InternalFault? {
    guard !hung, let crash = crashRecord, crash.ranScheduler else { return nil }
    let stack = symbolizer.symbolize(crash.frames, firstFrameIsFault: true)
    guard
      let innermost = stack.frames.first(where: { $0.kind != .runtime && $0.kind != .system }),
      innermost.kind == .raceCheck
    else { return nil }
    return InternalFault(
      signal: crash.signalName,
      message: stack.failureMessage ?? Self.fatalErrorMessage(in: standardError),
      // racecheck's frames are the point here: nothing is folded.
      function: innermost.function ?? innermost.symbol, stack: stack.render(fold: false),
      scenario: snapshot.scenario ?? crash.scenario)
  }

  /// What the report shows of the death while the child ran `scenario`, its stacks named by `symbolizer`.
  func evidence(of scenario: Scenario, symbolizer: Symbolizer) -> CrashEvidence {
    let calls = scenario.allCalls
    let inFlight = snapshot.threads.compactMap { thread -> CrashEvidence.InFlightCall? in
      guard let operation = thread.operation, calls.indices.contains(operation) else { return nil }
      return CrashEvidence.InFlightCall(
        thread: thread.slot, call: calls[operation], index: operation)
    }
    let crash = crashRecord
    let stackRecords = records.filter { $0.kind == .stack }
    let stack = crash.map { symbolizer.symbolize($0.frames, firstFrameIsFault: true) }
    let stacks =
      hung ? symbolizer.symbolize(stackRecords.map(\.frames), firstFrameIsFault: true) : []
    let kind: CrashEvidence.Kind
    var detail: String?
    var signalName: String?
    switch termination {
    case _ where hung:
      kind = .hang
      detail = hangDetail
    case .signaled(let signal):
      kind = .crash
      signalName = crash?.signalName ?? SignalName.name(of: signal)
    case .exited(let status):
      kind = .exit
      let text = String(strayOutput.prefix(200))
      detail =
        "exited with status \(status) before reporting"
        + (text.isEmpty ? "" : "; it wrote: \(text)")
    }
    return CrashEvidence(
      kind: kind, signal: signalName,
      message: stack?.failureMessage ?? Self.fatalErrorMessage(in: standardError)
        ?? CrashEvidence.failedAssertion(in: standardError),
      runnerThread: crash?.slot, threadName: crash?.threadName,
      invocation: snapshot.invocation, inFlight: inFlight,
      stack: stack?.render() ?? "(no stack was received)",
      threadStacks: zip(stackRecords, stacks).map { record, stack in
        "thread \(record.threadName) (tid \(record.threadID)):\n" + stack.render()
      },
      functions: stack?.frames.compactMap(\.function) ?? [],
      layer: stack?.frames.first { $0.kind != .runtime && $0.kind != .system }?.kind.displayName,
      detail: detail, standardError: Self.userMessages(in: standardError))
  }

  /// The message of the runtime's last "Fatal error: …" line, which debug builds print before they trap.
  ///
  /// Release builds print nothing; there the message is the inlined `Swift runtime failure`
  /// frame the symbolizer finds.
  static func fatalErrorMessage(in standardError: String) -> String? {
    guard
      let line = standardError.split(separator: "\n").last(where: { $0.contains("Fatal error: ") }),
      let range = line.range(of: "Fatal error: ")
    else { return nil }
    let message = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
    return message.isEmpty ? nil : message
  }

  /// What the child wrote to standard error before the runtime's own stack dump, which the report replaces.
  static func userMessages(in standardError: String) -> String? {
    let before = standardError.components(separatedBy: "Current stack trace:").first ?? ""
    let trimmed = String(before.suffix(2_000)).trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }
}
