import CRaceCheckInterposer
import Testing

/// Runs scenarios in schedule mode: each request explores schedules of one scenario under the controlled scheduler.
///
/// Everything is fixed by the request's seed: the same scenario and seed explore the same
/// schedules, so a check finds the same failing schedule again, and a shrinking candidate
/// is explored with the strategy seed of the scenario it came from.
package final class ScheduleScenarioRunner<Subject, Model: Hashable & Sendable>: ScenarioRunning {
  private let spec: Spec<Subject, Model>
  private let settings: ScheduleSettings
  private let observer: (any RunObserver)?
  /// Thread Sanitizer's reports, in a `--sanitize=thread` build.
  private let races = SanitizerRaceLog.isActive ? SanitizerRaceLog() : nil
  /// The stacks of those reports, symbolized once each.
  fileprivate lazy var raceStacks = SanitizerStacks()
  /// Whether a schedule left the main thread parked, as thread 0 of a schedule that deadlocked or ran past its bound.
  ///
  /// A parked thread never runs again, so the schedules after it run thread 0 on a thread
  /// of its own, and no longer on the main thread.
  private var mainThreadParked = false
  /// What every schedule of the check shares: parked threads, class layouts.
  private let resources = ScheduleResources()

  package init(
    spec: Spec<Subject, Model>, settings: ScheduleSettings, observer: (any RunObserver)? = nil
  ) {
    self.spec = spec
    self.settings = settings
    self.observer = observer
  }

  func shutDown() {}

  package func run(_ request: RunRequest) throws(RunError) -> RunResult {
    guard Interposer.isLinked else {
      // Without the interposer the scheduler would see no primitive and report a false pass.
      throw .operationThrew(
        SpecError(
          message:
            "schedule mode needs racecheck's interposer, which this process does not bind "
            + "(an executable that links RaceCheck statically on Linux binds it); use stress mode",
          scenario: request.scenario))
    }
    let prepared: PreparedScenario<Subject, Model>
    do {
      prepared = try PreparedScenario(request.scenario, spec: spec, probe: request.asyncProbe)
    } catch {
      throw .operationThrew(SpecError(message: error.description, scenario: request.scenario))
    }
    let sequence = observer?.scenarioStarts(request.scenario) ?? 0
    let runner = ScheduleRunner(
      spec: spec, scenario: prepared, settings: settings, seed: request.seed,
      replaying: request.replaying, observer: observer, resources: resources)
    runner.tracedSchedule = request.tracedSchedule
    runner.rootOnMainThread = spec.usesMainThread && !mainThreadParked
    defer { mainThreadParked = mainThreadParked || runner.parkedTheMainThread }
    let checker = OutcomeChecker(
      initial: spec.model, steps: prepared.steps, columnRanges: prepared.columnRanges)
    var result = RunResult()
    var unnamedRace:
      (report: rc_race_record, history: History, outcome: ScheduleRunner<Subject, Model>.Outcome)?
    let schedules = request.replaying == nil ? request.invocations : 1
    var codeRun: Set<UInt> = []
    var tracedCode: Set<UInt> = []
    for index in 0..<schedules {
      if index > 0, request.deadline.hasPassed { break }
      observer?.invocationStarts(scenario: sequence, invocation: index)
      races?.invocationStarts()
      guard let outcome = runner.run(schedule: index) else {
        result.exploredEverySchedule = true
        break
      }
      // A race the sanitizer names only by family waits for the end of the run: a later
      // schedule may show the scheduler's own account of it, which names more.
      var report = races?.takeReport()
      if let unnamed = report, !SanitizerRace.namesItsBug(unnamed) {
        if unnamedRace == nil { unnamedRace = (unnamed, runner.history(of: outcome), outcome) }
        report = nil
      }
      result.invocations += 1
      result.overlappingInvocations += 1
      result.noteUnseen(outcome.unseenSynchronization)
      codeRun.formUnion(outcome.codeRun)
      tracedCode.formUnion(outcome.tracedCode)
      if request.replaying != nil { result.replayedTrace = outcome.trace }
      if let (call, error) = outcome.error, !spec.isExploration {
        throw .operationThrew(
          SpecError(
            message: "operation \(request.scenario.allCalls[call]) threw \(error)",
            history: runner.history(of: outcome), scenario: request.scenario))
      }
      if let failure = failure(
        of: outcome, report: report, scenario: request.scenario, runner: runner, checker: checker)
      {
        result.failures += 1
        if result.failure == nil { result.failure = failure }
        if request.untilFirstFailure { break }
      }
    }
    // Not for a spec that runs thread 0 on the main thread: a candidate that deadlocks would
    // park it, and the search's next schedules need it.
    if request.fewerPreemptions, !spec.usesMainThread, let found = result.failure {
      var shrunk = withFewestPreemptions(
        found, scenario: request.scenario,
        makeRunner: { [spec, settings, resources] strategy in
          ScheduleRunner(
            spec: spec, scenario: prepared, settings: settings, strategy: strategy,
            resources: resources)
        }, checker: checker, deadline: request.deadline)
      let before = found.schedule?.trace?.preemptions
      if before != shrunk.schedule?.trace?.preemptions {
        shrunk.schedule?.preemptionsBeforeShrinking = before
      }
      result.failure = shrunk
    }
    if result.failure == nil, let (report, history, outcome) = unnamedRace {
      let (evidence, diagnosis) = sanitizerFailure(
        report, of: outcome, scenario: request.scenario, history: history)
      result.failure = ObservedFailure(evidence: evidence, diagnosis: diagnosis)
      result.failures += 1
    }
    result.distinctOutcomes = checker.searches
    result.chanceOfNewResults = checker.chanceOfNewResults
    result.divergence = runner.divergence
    // Named here, in the process that ran the schedules: the addresses are its own.
    result.noteUntraced(UntracedCode.functions(run: codeRun, traced: tracedCode))
    if request.asyncProbe != nil { result.failure?.asyncHops = prepared.asyncCalls.hops() }
    return result
  }

  /// The failure `outcome` shows, or nil when it has a linearization; `report` is Thread Sanitizer's specific one of the same schedule.
  func failure(
    of outcome: ScheduleRunner<Subject, Model>.Outcome, report: rc_race_record?,
    scenario: Scenario, runner: ScheduleRunner<Subject, Model>, checker: OutcomeChecker<Model>
  ) -> ObservedFailure? {
    // Made only for a failure: most schedules pass, and each would pay for it.
    lazy var history = runner.history(of: outcome)
    let evidence: Evidence
    var diagnosis: Diagnosis?
    if let deadlock = outcome.deadlock {
      evidence = .deadlock(history)
      diagnosis = Diagnoser.diagnose(.deadlock(deadlock))
    } else if outcome.cutOff {
      evidence = .stepBound(history)
      diagnosis = Diagnoser.diagnose(.stepBound(maxSteps: settings.maxSteps))
    } else if let race = outcome.race {
      evidence = .dataRace(history)
      diagnosis = Diagnoser.diagnose(.race(race))
    } else if spec.isExploration, let failures = failedExpectations(of: outcome) {
      evidence = .failedExpectation(history, failures)
      diagnosis = Diagnoser.diagnose(.failedExpectations(failures))
    } else if let report {
      // A race on state the scheduler does not see, which the sanitizer does.
      (evidence, diagnosis) = sanitizerFailure(
        report, of: outcome, scenario: scenario, history: history)
    } else if spec.isExploration {
      // A body has no results to linearize: its own expectations judge the schedule.
      return nil
    } else {
      switch checker.check(outcome.record) {
      case .linearizable, .undecided:
        // Without a deadline the search always decides.
        return nil
      case .notLinearizable(let prefix, let state):
        evidence = .nonLinearizable(
          history,
          Explanation(history: history, longestPrefix: prefix, state: state, steps: runner.steps))
      case .repeatedFailure:
        // An earlier schedule had the same results and order; search again for this one's explanation.
        let search = LinearizabilityChecker<Model>(
          intervals: outcome.record.callTimes.indices.map {
            .init(
              callTime: outcome.record.callTimes[$0], returnTime: outcome.record.returnTimes[$0])
          }, initial: spec.model
        ) { [steps = runner.steps] state, index in
          steps[index](&state) == outcome.record.results[index]
        }
        guard case .notLinearizable(let prefix, let state) = search.check() else { return nil }
        evidence = .nonLinearizable(
          history,
          Explanation(history: history, longestPrefix: prefix, state: state, steps: runner.steps))
      }
    }
    return ObservedFailure(
      evidence: evidence, diagnosis: diagnosis,
      schedule: ScheduleObservation(
        index: outcome.index, trace: outcome.trace,
        findings: outcome.findings.map { Diagnosis($0.pattern, evidence: $0.evidence) },
        escapedReads: runner.escapedReads(of: outcome)))
  }
}

extension ScheduleScenarioRunner {
  /// An explored body's failed expectations in `outcome`, with the error it threw, if any; nil when there are none.
  ///
  /// `#require` throws after it records its issue, which is then already among them.
  fileprivate func failedExpectations(of outcome: ScheduleRunner<Subject, Model>.Outcome)
    -> [ExpectationFailure]?
  {
    var failures = outcome.failedExpectations
    if let (_, error) = outcome.error, !(error is ExpectationFailedError) {
      failures.append(ExpectationFailure(message: "the body threw \(error)", location: nil))
    }
    return failures.isEmpty ? nil : failures
  }

  /// The failure a Thread Sanitizer report makes of a schedule that ran to its end.
  fileprivate func sanitizerFailure(
    _ report: rc_race_record, of outcome: ScheduleRunner<Subject, Model>.Outcome,
    scenario: Scenario, history: History
  ) -> (Evidence, Diagnosis) {
    let decoded = SanitizerRace.decoded(
      report, scenario: scenario, stacks: raceStacks,
      cell: outcome.nameOfCell(UInt(report.accesses.0.address)))
    return (.sanitizerRace(decoded.race, .finished(history)), decoded.diagnosis)
  }
}

extension PreparedScenario {
  /// The range of history positions of each thread's column.
  var columnRanges: [Range<Int>] {
    var offset = initial.count
    return columns.map { column in
      defer { offset += column.count }
      return offset..<(offset + column.count)
    }
  }
}
