import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a check in a child process, so that a crash or a hang in the code under test becomes a report.
///
/// The child is this program started again in worker mode (``IsolatedWorker``). It
/// announces every scenario before running it and keeps the shared flight recorder
/// current, so when it dies the parent knows the scenario, the invocation and the calls
/// in flight, and reads the crashing thread's stack from the report pipe. A child that
/// makes no progress for `invocationTimeout` seconds is hung: the parent asks every
/// thread for its stack, then kills it. A crash is shrunk like any failure, each
/// candidate run in a fresh child.
package struct IsolatedCheck {
  /// The program to start in worker mode: this one.
  package var executable: String = IsolatedCheck.currentExecutable
  /// The arguments the program is started with: none for `racecheck`, the current test's selection for a test binary.
  package var arguments: [String] = []
  /// The location of the `check` call the child must run, when it is a re-launched test binary.
  package var callSite: String?
  /// The target to check.
  package let target: Target
  /// How to check it.
  package let configuration: Configuration
  /// Seconds one invocation may take before the child counts as hung.
  package var invocationTimeout: Double
  /// The index in its run of the scenario that failed, which seeds its schedules in schedule mode.
  private var scenarioIndex = 0

  /// Creates an isolated check of `target`.
  package init(target: Target, configuration: Configuration) {
    self.target = target
    self.configuration = configuration
    self.invocationTimeout = configuration.hangTimeout
  }

  /// The absolute path of the running program.
  package static var currentExecutable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }

  /// Runs the check in a child and returns its report, or the report of how the child died.
  package func run() -> CheckReport {
    let started = MonotonicClock.now()
    var report: CheckReport
    do {
      let outcome = try runChild(job())
      if let finished = outcome.report {
        report = finished
      } else if outcome.termination == .exited(0), outcome.rawMessages.isEmpty {
        report = emptyReport()
        report.specError = SpecError(message: neverStartedMessage)
      } else {
        let secondsToFind = Double(MonotonicClock.now() - started) / 1e9
        var failed = self
        failed.scenarioIndex = max(0, outcome.scenarioCount - 1)
        report = failed.deathReport(outcome)
        report.failure?.secondsToFind = secondsToFind
      }
    } catch {
      report = emptyReport()
      report.specError = SpecError(message: "the isolated child could not be run: \(error)")
    }
    report.seconds = Double(MonotonicClock.now() - started) / 1e9
    return report
  }

  /// The job for a child: the whole check, or `scenario` alone.
  private func job(scenario: Scenario? = nil) -> WorkerJob {
    var job = WorkerJob(target: target.name, configuration: configuration)
    job.scenario = scenario
    job.scenarioIndex = scenarioIndex
    job.callSite = callSite
    return job
  }

  /// Why a child that exited cleanly without a word did not check anything.
  private var neverStartedMessage: String {
    let started = ([executable] + arguments).joined(separator: " ")
    let cause =
      callSite == nil
      ? "\(started) does not run racecheck workers"
      : "the test binary, started again as `\(started)`, did not reach the check at \(callSite!)"
    return "the isolated child exited without checking: \(cause); "
      + "set `Configuration.isolated` to false to check in this process"
  }

  /// Everything the parent learned from one child.
  struct ChildOutcome {
    var termination: ChildProcess.Termination
    var hung: Bool
    var messages: [WorkerMessage]
    var rawMessages: [UInt8]
    var records: [CrashRecord]
    var snapshot: FlightRecorder.Snapshot
    var standardError: String

    /// The child's report, when it finished normally.
    var report: CheckReport? {
      guard !hung, termination == .exited(0), case .report(let report) = messages.last else {
        return nil
      }
      return report
    }

    /// Whether the child died of a signal it raised itself.
    var crashed: Bool {
      if case .signaled = termination { return !hung }
      return false
    }

    /// The scenario the child was running when it ended.
    var scenario: Scenario {
      var announced: [Int: Scenario] = [:]
      for case .scenario(let sequence, let scenario) in messages { announced[sequence] = scenario }
      return snapshot.scenario.flatMap { announced[$0] } ?? Scenario()
    }

    /// The number of scenarios the child announced.
    var scenarioCount: Int {
      messages.filter { if case .scenario = $0 { return true } else { return false } }.count
    }
  }

  /// Starts a child on `job` and watches it until it ends, is found hung, or stops talking.
  ///
  /// The child is hung when an invocation makes no progress for `hangTimeout` seconds,
  /// ``invocationTimeout`` unless given.
  func runChild(_ job: WorkerJob, hangTimeout: Double? = nil) throws(SystemCallError)
    -> ChildOutcome
  {
    let hangTimeout = hangTimeout ?? invocationTimeout
    let recorder = try FlightRecorder()
    let messages = try ReportPipe()
    let records = try ReportPipe()
    let errors = try ReportPipe()
    let silence = open("/dev/null", O_WRONLY | O_CLOEXEC)
    guard silence >= 0 else { throw .fromErrno("open /dev/null") }
    defer { close(silence) }
    let child = try ChildProcess.spawn(
      executable: executable, arguments: arguments,
      environment: [
        WorkerJob.environmentKey: job.environmentValue, "SWIFT_BACKTRACE": "enable=no",
      ],
      fileDescriptors: [
        WorkerJob.messagesDescriptor: messages.writeEnd,
        WorkerJob.reportDescriptor: records.writeEnd,
        WorkerJob.recorderDescriptor: recorder.fileDescriptor,
        // A re-launched test binary prints its framework's progress, which is not the report.
        STDOUT_FILENO: silence,
        STDERR_FILENO: errors.writeEnd,
      ])
    messages.closeWriteEnd()
    records.closeWriteEnd()
    errors.closeWriteEnd()

    var messageBytes: [UInt8] = []
    var recordBytes: [UInt8] = []
    // What the code under test writes to standard error goes into the report, not over racecheck's output.
    var errorBytes: [UInt8] = []
    var progress = recorder.snapshot()
    var lastProgress = MonotonicClock.now()
    var termination: ChildProcess.Termination?
    var hung = false
    while termination == nil {
      messageBytes += try messages.read(timeout: .milliseconds(50)).bytes
      errorBytes += try errors.read(timeout: .milliseconds(1)).bytes
      termination = try child.poll()
      if termination != nil { break }
      let now = recorder.snapshot()
      if now.scenario != progress.scenario || now.invocation != progress.invocation {
        progress = now
        lastProgress = MonotonicClock.now()
      } else if Double(MonotonicClock.now() - lastProgress) / 1e9 > hangTimeout {
        hung = true
        _ = try? CrashCapture.requestStacks(fromProcess: child.id)
        recordBytes += try records.read(timeout: .seconds(1)).bytes
        try? child.kill(SIGKILL)
        termination = try child.wait()
      }
    }
    // Whatever the child wrote before it ended is still in the pipes.
    messageBytes += try messages.read(timeout: .seconds(2)).bytes
    recordBytes += try records.read(timeout: .seconds(2)).bytes
    errorBytes += try errors.read(timeout: .milliseconds(200)).bytes
    return ChildOutcome(
      termination: termination!, hung: hung, messages: WorkerMessage.parse(messageBytes),
      rawMessages: messageBytes, records: CrashRecord.parse(bytes: recordBytes),
      snapshot: recorder.snapshot(),
      standardError: String(decoding: errorBytes.prefix(65_536), as: UTF8.self))
  }

  /// Runs `scenario` alone in a fresh child, `invocations` times; nil when the child could not run.
  func runScenario(_ scenario: Scenario, invocations: Int, hangTimeout: Double? = nil)
    -> ChildOutcome?
  {
    var job = job(scenario: scenario)
    job.configuration.invocations = invocations
    return try? runChild(job, hangTimeout: hangTimeout)
  }

  private func emptyReport() -> CheckReport {
    CheckReport(
      target: target.name, seed: configuration.effectiveSeed(forSpecNamed: target.name),
      configuration: configuration, scenarios: 0, invocations: 0, seconds: 0)
  }

  /// The report of a child that crashed, hung or exited without reporting, its crash shrunk first.
  private func deathReport(_ outcome: ChildOutcome) -> CheckReport {
    var final = (scenario: outcome.scenario, outcome: outcome, steps: 0)
    if outcome.crashed, configuration.minimizes {
      final = shrunk(outcome)
    }
    let sample = tellingSample(of: final.outcome, scenario: final.scenario)
    let evidence = sample.evidence
    var report = emptyReport()
    report.scenarios = outcome.scenarioCount
    let kind: FailureReport.Kind =
      evidence.kind == .crash ? .crash : evidence.kind == .hang ? .hang : .exit
    var failure = FailureReport(
      kind: kind, secondsToFind: 0, original: outcome.scenario,
      scenarioIndex: max(0, outcome.scenarioCount - 1),
      scenario: final.scenario, history: History(entries: []),
      explanation: Explanation(longestPrefix: [], state: "", candidates: []),
      diagnosis: sample.diagnosis,
      failedInvocations: 1, invocations: (sample.outcome.snapshot.invocation ?? 0) + 1,
      shrinkSteps: final.steps,
      crash: evidence)
    failure.trace = sample.outcome.snapshot.invocation.flatMap {
      trace(of: final.scenario, schedule: $0)
    }
    let repro = Repro(
      target: target.name, seed: report.seed, scenarioIndex: failure.scenarioIndex,
      configuration: configuration, scenario: final.scenario,
      diagnosis: failure.diagnosis.pattern, history: nil, failure: kind)
    do {
      failure.reproPath = try repro.write(into: configuration.reproDirectory ?? ".racecheck/repro")
    } catch {
      failure.reproError = "\(error)"
    }
    report.failure = failure
    return report
  }

  /// In schedule mode, the interleaving of schedule `schedule` of `scenario` up to where it died, streamed by a fresh child; nil in stress mode.
  ///
  /// The schedules are fixed by the seed, so the child that runs them again dies at the
  /// same point, and what it streamed before is the trace that led there.
  private func trace(of scenario: Scenario, schedule: Int) -> InterleavingTrace? {
    guard configuration.schedule != nil else { return nil }
    var job = job(scenario: scenario)
    job.configuration.invocations = schedule + 1
    job.tracedSchedule = schedule
    // A schedule that hung once hangs again; its steps up to there stream in well before this.
    guard let outcome = try? runChild(job, hangTimeout: min(invocationTimeout, 2)) else {
      return nil
    }
    let events = outcome.messages.compactMap { message -> InterleavingTrace.Event? in
      guard case .trace(let event) = message else { return nil }
      return event
    }
    return events.isEmpty ? nil : InterleavingTrace(events: events)
  }

  /// The diagnosis of a child's death while it ran `scenario`.
  private func diagnose(_ evidence: CrashEvidence, of outcome: ChildOutcome, scenario: Scenario)
    -> Diagnosis
  {
    diagnoser(evidence, of: outcome, scenario: scenario).diagnose()
  }

  private func diagnoser(
    _ evidence: CrashEvidence, of outcome: ChildOutcome, scenario: Scenario
  ) -> CrashDiagnoser {
    CrashDiagnoser(
      evidence: evidence, scenario: scenario,
      arrayAfter: { (target.checkable as? any IsolatedCheckable)?.arrayElements(after: $0) },
      crashesSequentially: {
        crashesWhenRunInTurn(scenario, invocations: candidateInvocations(after: outcome))
      })
  }

  /// More runs of a scenario that died, at most, when its death names no specific bug.
  static let extraSamples = 2

  /// The run of `scenario` whose death names its bug best: `outcome`, or one of up to ``extraSamples`` more runs.
  ///
  /// A racy bug dies differently from run to run, and some deaths tell less than others
  /// (see ``CrashDiagnoser/anotherCrashMayTellMore(than:)``). The report shows the most
  /// specific diagnosis found, with the evidence of the run that gave it, and says so when
  /// that was not the first run.
  private func tellingSample(of outcome: ChildOutcome, scenario: Scenario) -> (
    outcome: ChildOutcome, evidence: CrashEvidence, diagnosis: Diagnosis
  ) {
    func sample(_ outcome: ChildOutcome) -> (
      outcome: ChildOutcome, evidence: CrashEvidence, diagnosis: Diagnosis,
      diagnoser: CrashDiagnoser
    ) {
      let evidence = evidence(of: outcome, scenario: scenario)
      let diagnoser = diagnoser(evidence, of: outcome, scenario: scenario)
      return (outcome, evidence, diagnoser.diagnose(), diagnoser)
    }
    let first = sample(outcome)
    var best = first
    var runs = 1
    // A run that hangs tells nothing new, so it is not waited on for the full hang timeout.
    while runs <= Self.extraSamples, best.diagnoser.anotherCrashMayTellMore(than: best.diagnosis),
      let rerun = runScenario(
        scenario, invocations: candidateInvocations(after: outcome),
        hangTimeout: min(invocationTimeout, 1)),
      rerun.crashed || rerun.hung
    {
      runs += 1
      let next = sample(rerun)
      if next.diagnosis.pattern.specificity > best.diagnosis.pattern.specificity {
        best = next
        best.diagnosis.evidence +=
          " (seen in run \(runs) of this scenario; the first run \(first.evidence.outcome), "
          + "which names \(first.diagnosis.pattern.rawValue))"
      }
    }
    return (best.outcome, best.evidence, best.diagnosis)
  }

  /// Runs a repro's scenario in a fresh child up to `invocations` times, and reports whether it crashed, hung or exited again.
  package func replay(_ repro: Repro, invocations: Int) -> ReplayReport {
    var check = self
    check.scenarioIndex = repro.scenarioIndex
    return check.replayScenario(repro, invocations: invocations)
  }

  private func replayScenario(_ repro: Repro, invocations: Int) -> ReplayReport {
    var report = ReplayReport(repro: repro, invocations: 0, failures: 0)
    guard let outcome = runScenario(repro.scenario, invocations: invocations) else {
      report.specError = SpecError(message: "the isolated child could not be started")
      return report
    }
    if outcome.termination == .exited(0), !outcome.hung {
      report.invocations = invocations
      return report
    }
    let evidence = evidence(of: outcome, scenario: repro.scenario)
    report.invocations = (outcome.snapshot.invocation ?? 0) + 1
    report.failures = 1
    report.crash = evidence
    report.diagnosis = diagnose(evidence, of: outcome, scenario: repro.scenario)
    return report
  }

  /// The smallest scenario found, within the configured shrinking time, that still crashes with the same signal.
  ///
  /// Each candidate runs in a fresh child, for a few times the invocations the crash
  /// took to show: a candidate that keeps a racy crash shows it within that budget
  /// most of the time, and one that lost it does not cost a whole run.
  private func shrunk(_ outcome: ChildOutcome) -> (
    scenario: Scenario, outcome: ChildOutcome, steps: Int
  ) {
    let deadline = configuration.shrinkDeadline()
    let budget = candidateInvocations(after: outcome)
    let fails = { (candidate: Scenario) -> ChildOutcome? in
      // A candidate that hangs does not fail the same way; it must not outlast the deadline either.
      let remaining = Double(deadline - MonotonicClock.now()) / 1e9
      guard remaining > 0,
        let result = runScenario(
          candidate, invocations: budget, hangTimeout: min(invocationTimeout, remaining)),
        result.crashed, result.termination == outcome.termination
      else { return nil }
      return result
    }
    var start = (scenario: outcome.scenario, outcome: outcome, steps: 0)
    // Calls that never started cannot matter; dropping them all at once saves many candidates.
    // Not for a crash off the runner threads: a block submitted by an earlier invocation may
    // run during a later one, so the calls in flight do not bound the culprit.
    let started = outcome.scenario.truncated(
      afterCallsInFlight: outcome.snapshot.threads.compactMap(\.operation))
    let onRunnerThread = outcome.records.first { $0.kind == .crash }?.slot != nil
    if onRunnerThread, started != outcome.scenario, let result = fails(started) {
      start = (started, result, 1)
    }
    let shrinker = Shrinker<ChildOutcome>(fails: fails, simplerArguments: { _ in [] })
    guard let shrunk = try? shrinker.shrink(start.scenario, failure: start.outcome) else {
      return start
    }
    return (shrunk.scenario, shrunk.failure, start.steps + shrunk.steps)
  }

  /// Invocations for a run of a crash's candidate scenario: four times what the crash took and at least 200, within the configured count.
  private func candidateInvocations(after outcome: ChildOutcome) -> Int {
    let took = (outcome.snapshot.invocation ?? 0) + 1
    return min(configuration.invocations, max(200, 4 * took))
  }

  /// What the report shows of a child's death while it ran `scenario`.
  private func evidence(of outcome: ChildOutcome, scenario: Scenario) -> CrashEvidence {
    let calls = scenario.allCalls
    let inFlight = outcome.snapshot.threads.compactMap { thread -> CrashEvidence.InFlightCall? in
      guard let operation = thread.operation, calls.indices.contains(operation) else { return nil }
      return CrashEvidence.InFlightCall(
        thread: thread.slot, call: calls[operation], index: operation)
    }
    let crash = outcome.records.first { $0.kind == .crash }
    let stackRecords = outcome.records.filter { $0.kind == .stack }
    let symbolizer = Symbolizer()
    let stack = crash.map { symbolizer.symbolize($0.frames, firstFrameIsFault: true) }
    let stacks =
      outcome.hung ? symbolizer.symbolize(stackRecords.map(\.frames), firstFrameIsFault: true) : []
    let kind: CrashEvidence.Kind
    var detail: String?
    var signalName: String?
    switch outcome.termination {
    case _ where outcome.hung:
      kind = .hang
    case .signaled(let signal):
      kind = .crash
      signalName = crash?.signalName ?? "signal \(signal)"
    case .exited(let status):
      kind = .exit
      let text = String(decoding: outcome.rawMessages.prefix(200), as: UTF8.self)
      detail =
        "exited with status \(status) before reporting"
        + (text.isEmpty ? "" : "; it wrote: \(text)")
    }
    return CrashEvidence(
      kind: kind, signal: signalName,
      message: stack?.failureMessage ?? Self.fatalErrorMessage(in: outcome.standardError),
      runnerThread: crash?.slot, threadName: crash?.threadName,
      invocation: outcome.snapshot.invocation, inFlight: inFlight,
      stack: stack?.render() ?? "(no stack was received)",
      threadStacks: zip(stackRecords, stacks).map { record, stack in
        "thread \(record.threadName) (tid \(record.threadID)):\n" + stack.render()
      },
      functions: stack?.frames.compactMap(\.function) ?? [],
      layer: stack?.frames.first { $0.kind != .runtime && $0.kind != .system }?.kind.displayName,
      detail: detail, standardError: Self.userMessages(in: outcome.standardError))
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

  /// Whether `scenario` crashes with its threads run one after another, in a fresh child; nil when that cannot be told.
  private func crashesWhenRunInTurn(_ scenario: Scenario, invocations: Int) -> Bool? {
    let inTurn = ConcurrentOnlyFailure.inTurn(scenario)
    guard let outcome = runScenario(inTurn, invocations: invocations), !outcome.hung else {
      return nil
    }
    return outcome.termination != .exited(0)
  }
}
