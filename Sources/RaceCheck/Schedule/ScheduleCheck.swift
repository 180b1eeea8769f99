/// One check in schedule mode: scenarios explored schedule by schedule until one fails, then shrinking and the report.
///
/// Everything is fixed by the seed: scenario `i` is explored with a strategy seeded by
/// the seed derived for `i`, so the same seed finds the same failing schedule, and a
/// shrinking candidate is explored with that same strategy seed.
struct ScheduleCheck<Subject, Model: Hashable & Sendable> {
  let spec: Spec<Subject, Model>
  let configuration: Configuration
  /// The link to the parent when this check runs in an isolated child: each scenario is announced, and each schedule counts as an invocation.
  var link: WorkerLink? = nil
  /// The schedule of each explored scenario whose trace is streamed through ``link`` as it runs, if any.
  var tracedSchedule: Int? = nil

  private var settings: ScheduleSettings { configuration.schedule ?? ScheduleSettings() }

  func run() -> CheckReport {
    let started = MonotonicClock.now()
    let seed = configuration.effectiveSeed(forSpecNamed: spec.name)
    var report = CheckReport(
      target: spec.name, seed: seed, configuration: configuration, scenarios: 0, invocations: 0,
      seconds: 0, voidOperations: spec.voidOperations)
    if let problem = spec.validationError() {
      report.specError = SpecError(message: problem)
      return report
    }
    let generator = ScenarioGenerator(spec: spec, shape: configuration.shape)
    let deadline = configuration.timeLimit.map { started + Int64($0 * 1e9) }
    var scenario = Scenario()
    do {
      for index in 0..<configuration.scenarios {
        if let deadline, MonotonicClock.now() > deadline { break }
        scenario = generator.scenario(seed: seed, index: index)
        let strategySeed = Self.strategySeed(seed, scenarioIndex: index)
        let result = try explore(scenario, seed: strategySeed, stopAtFirstFailure: true)
        report.scenarios += 1
        report.invocations += result.schedules
        if let failure = result.failure {
          let secondsToFind = Double(MonotonicClock.now() - started) / 1e9
          report.failure = try explain(failure, of: scenario, index: index, seed: strategySeed)
          report.failure?.secondsToFind = secondsToFind
          break
        }
      }
    } catch let error as OperationError {
      report.specError = SpecError(
        message: error.description, history: error.history, scenario: scenario)
    } catch {
      report.specError = SpecError(message: "\(error)", scenario: scenario)
    }
    report.seconds = Double(MonotonicClock.now() - started) / 1e9
    return report
  }

  /// Runs `scenario` once under the recorded `schedule`: its failure, if it failed again, the interleaving, and where it left the schedule.
  func replay(_ scenario: Scenario, schedule: [Int]) throws -> (
    failure: ScheduleFailure<Model>?, trace: InterleavingTrace?, divergence: String?
  ) {
    let prepared = try PreparedScenario(scenario, spec: spec)
    let runner = ScheduleRunner(
      spec: spec, scenario: prepared, settings: settings, seed: 0, replaying: schedule)
    let checker = outcomeChecker(prepared)
    guard let outcome = runner.run(schedule: 0) else { return (nil, nil, runner.divergence) }
    try throwIfAnOperationThrew(outcome, of: scenario, runner: runner)
    return (
      failure(of: outcome, runner: runner, checker: checker), outcome.trace, runner.divergence
    )
  }

  /// The seed of the strategy that explores scenario `scenarioIndex` of a run with `seed`.
  static func strategySeed(_ seed: UInt64, scenarioIndex: Int) -> UInt64 {
    SplitMix64.derive(seed, UInt64(scenarioIndex))
  }

  /// Explores `scenario`'s schedules; returns how many ran, how many failed and the first failure.
  func explore(_ scenario: Scenario, seed: UInt64, stopAtFirstFailure: Bool) throws
    -> (schedules: Int, failures: Int, failure: ScheduleFailure<Model>?)
  {
    let prepared = try PreparedScenario(scenario, spec: spec)
    let sequence = link?.announce(scenario) ?? 0
    let runner = ScheduleRunner(
      spec: spec, scenario: prepared, settings: settings, seed: seed, link: link)
    runner.tracedSchedule = tracedSchedule
    let checker = outcomeChecker(prepared)
    var schedules = 0
    var failures = 0
    var first: ScheduleFailure<Model>?
    for index in 0..<settings.schedulesPerScenario {
      link?.recorder.beginInvocation(scenario: sequence, invocation: index)
      guard let outcome = runner.run(schedule: index) else { break }
      schedules += 1
      try throwIfAnOperationThrew(outcome, of: scenario, runner: runner)
      if let failure = failure(of: outcome, runner: runner, checker: checker) {
        failures += 1
        if first == nil { first = failure }
        if stopAtFirstFailure { break }
      }
    }
    return (schedules, failures, first)
  }

  /// The checker of `prepared`'s outcomes, which decides each distinct outcome once.
  private func outcomeChecker(_ prepared: PreparedScenario<Subject, Model>) -> OutcomeChecker<Model>
  {
    OutcomeChecker(
      initial: spec.model, steps: prepared.steps, columnRanges: columnRanges(prepared))
  }

  /// Ends the check as a broken spec when an operation threw during the schedule.
  private func throwIfAnOperationThrew(
    _ outcome: ScheduleRunner<Subject, Model>.Outcome, of scenario: Scenario,
    runner: ScheduleRunner<Subject, Model>
  ) throws(OperationError) {
    guard let (call, error) = outcome.error else { return }
    throw OperationError(
      call: scenario.allCalls[call], error: error, history: runner.history(of: outcome))
  }

  private func columnRanges(_ prepared: PreparedScenario<Subject, Model>) -> [Range<Int>] {
    var offset = prepared.initial.count
    return prepared.columns.map { column in
      defer { offset += column.count }
      return offset..<(offset + column.count)
    }
  }

  private func failure(
    of outcome: ScheduleRunner<Subject, Model>.Outcome, runner: ScheduleRunner<Subject, Model>,
    checker: OutcomeChecker<Model>
  ) -> ScheduleFailure<Model>? {
    var failure = ScheduleFailure<Model>(
      kind: .nonLinearizable, schedule: outcome.index, history: runner.history(of: outcome),
      trace: outcome.trace, diagnosis: nil, longestPrefix: [], state: nil,
      findings: outcome.findings)
    if let deadlock = outcome.deadlock {
      failure.kind = .deadlock
      failure.diagnosis = deadlock.diagnosis
      return failure
    }
    if outcome.cutOff {
      failure.kind = .stepBound
      failure.diagnosis = Diagnosis(
        .unclassified,
        evidence:
          "the schedule ran past \(settings.maxSteps) scheduling points without finishing: a spin loop or a livelock"
      )
      return failure
    }
    if let race = outcome.race {
      failure.kind = .dataRace
      failure.diagnosis = race.diagnosis
      return failure
    }
    switch checker.check(outcome.record) {
    case .linearizable: return nil
    case .repeatedFailure:
      // The search ran for an earlier schedule with the same results and order; run it again for this one's evidence.
      let search = LinearizabilityChecker<Model>(
        intervals: outcome.record.callTimes.indices.map {
          .init(callTime: outcome.record.callTimes[$0], returnTime: outcome.record.returnTimes[$0])
        }, initial: spec.model
      ) { [steps = runner.steps] state, index in
        steps[index](&state) == outcome.record.results[index]
      }
      if case .notLinearizable(let prefix, let state) = search.check() {
        failure.longestPrefix = prefix
        failure.state = state
      }
      return failure
    case .notLinearizable(let prefix, let state):
      failure.longestPrefix = prefix
      failure.state = state
      return failure
    }
  }

  /// Shrinks a failing scenario, names the bug and assembles the report.
  private func explain(
    _ failure: ScheduleFailure<Model>, of scenario: Scenario, index: Int, seed: UInt64
  ) throws -> FailureReport {
    var minimized = (scenario: scenario, failure: failure, steps: 0)
    if configuration.minimizes {
      let shrinker = Shrinker<ScheduleFailure<Model>>(
        fails: { candidate throws(OperationError) in
          guard let found = try? explore(candidate, seed: seed, stopAtFirstFailure: true).failure,
            found.isSameBug(as: failure)
          else { return nil }
          return found
        },
        simplerArguments: spec.simplerArguments)
      minimized = try shrinker.shrink(scenario, failure: failure)
    }
    let recount = try explore(minimized.scenario, seed: seed, stopAtFirstFailure: false)
    let history = minimized.failure.history
    var diagnosis = minimized.failure.diagnosis ?? Diagnoser.diagnose(history, spec: spec)
    // The results show only the family of a race; a barrier the scheduler saw GCD ignore names it.
    if diagnosis.pattern == .dataRace,
      let barrier = minimized.failure.findings.first(where: { $0.pattern == .barrierOnGlobalQueue })
    {
      diagnosis = Diagnosis(
        .barrierOnGlobalQueue, evidence: diagnosis.evidence + "; and " + barrier.evidence)
    }
    let prepared = try PreparedScenario(minimized.scenario, spec: spec)
    var report = FailureReport(
      kind: minimized.failure.kind, secondsToFind: 0, original: scenario, scenarioIndex: index,
      scenario: minimized.scenario, history: history,
      explanation: explanation(of: minimized.failure, steps: prepared.steps),
      diagnosis: diagnosis, failedInvocations: recount.failures, invocations: recount.schedules,
      shrinkSteps: minimized.steps)
    report.trace = minimized.failure.trace
    report.scheduleIndex = minimized.failure.schedule
    var repro = Repro(
      target: spec.name, seed: configuration.effectiveSeed(forSpecNamed: spec.name),
      scenarioIndex: index, configuration: configuration, scenario: minimized.scenario,
      diagnosis: diagnosis.pattern, history: spec.recordedHistory(history))
    repro.failure = minimized.failure.kind
    repro.schedule = minimized.failure.trace.schedule
    do {
      report.reproPath = try repro.write(into: configuration.reproDirectory ?? ".racecheck/repro")
    } catch {
      report.reproError = "\(error)"
    }
    let findings = minimized.failure.findings.filter { $0.pattern != diagnosis.pattern }
    report.findings =
      findings.isEmpty ? nil : findings.map { Diagnosis($0.pattern, evidence: $0.evidence) }
    return report
  }

  /// The checker's account of a result no order explains; empty for a race or a deadlock.
  private func explanation(
    of failure: ScheduleFailure<Model>, steps: [@Sendable (inout Model) -> Value]
  ) -> Explanation {
    guard failure.kind == .nonLinearizable, let state = failure.state else {
      return Explanation(longestPrefix: [], state: "", candidates: [])
    }
    return Explanation(
      history: failure.history, longestPrefix: failure.longestPrefix, state: state, steps: steps)
  }
}
