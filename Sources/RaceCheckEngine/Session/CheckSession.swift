/// One check of a spec, whatever runs its scenarios: the loop, the budget, the verdict, shrinking, diagnosis, the report, the repro and interruption.
///
/// Stress mode, schedule mode and isolated children differ only in the ``ScenarioRunning``
/// the session is given. The session generates scenario `i` from the seed, asks the
/// runner for its budget of invocations, and accounts for what the runner explored:
/// a pass is claimed only when every planned scenario reached its budget of
/// overlapping invocations; a search cut short (the time limit, the invocation cap, an
/// interrupt) is `inconclusive`, with the reason.
final class CheckSession<Subject, Model: Hashable & Sendable> {
  let spec: Spec<Subject, Model>
  let configuration: Configuration
  let runner: any ScenarioRunning
  /// Tells whether SIGINT or SIGTERM asked the check to stop; nil when nothing watches for them.
  let interruption: Interruption?
  /// Told how far the check has got after each scenario, for a status line; nil when nothing shows it.
  let progress: ProgressSink?
  /// The seed of the run.
  let seed: UInt64
  /// When the session started.
  let started: MonotonicInstant
  /// When the search must stop, from ``Configuration/timeLimit``.
  let deadline: Deadline

  init(
    spec: Spec<Subject, Model>, configuration: Configuration, runner: any ScenarioRunning,
    interruption: Interruption? = nil, progress: ProgressSink? = nil
  ) {
    self.spec = spec
    self.configuration = configuration
    self.runner = runner
    self.interruption = interruption
    self.progress = progress
    seed = configuration.effectiveSeed(forSpecNamed: spec.name)
    let now = MonotonicInstant.now()
    started = now
    deadline = .after(configuration.timeLimit, from: now)
  }

  /// Runs the search and returns the report; the runner is shut down at the end.
  func run() -> CheckReport {
    defer { runner.shutDown() }
    var report = CheckReport(target: spec.name, seed: seed, configuration: configuration)
    report.voidOperations = spec.voidOperations
    if let problem = spec.validationError() {
      report.outcome = .specError(SpecError(message: problem))
      return finished(report)
    }
    let generator = ScenarioGenerator(spec: spec, shape: configuration.shape)
    let first = min(configuration.firstScenario, configuration.scenarios)
    // A stride, not an array: `--scenarios` may be huge when `--time` bounds the check.
    let all = first..<configuration.scenarios
    let indexes =
      configuration.shard?.positions(in: all) ?? stride(from: first, to: all.upperBound, by: 1)
    report.search.plannedScenarios = configuration.shard?.count(in: all) ?? all.count
    var scenario = Scenario()
    // Schedule mode: what the code synchronized through unseen, which a pass cannot vouch for.
    var unseen = RunResult()
    // Replaying a body's schedule: where the code left it, if it did.
    var divergence: String?
    do throws(RunError) {
      for index in indexes {
        if let signal = interruption?.signal {
          report.outcome = .inconclusive(.interrupted(signal: signal))
          return finished(report)
        }
        if deadline.hasPassed {
          report.outcome = .inconclusive(
            .timeLimit(scenarios: report.search.scenarios, planned: report.search.plannedScenarios))
          return finished(report)
        }
        tellProgress(report.search, stage: .searching)
        scenario = generator.scenario(seed: seed, index: index)
        let request = RunRequest(
          scenario: scenario, seed: Self.scenarioSeed(seed, index: index),
          invocations: invocationBudget(forScenario: index), untilFirstFailure: true,
          deadline: deadline)
        let result = try run(request)
        unseen.noteUnseen(result.unseenSynchronization)
        report.search.untracedCode = (report.search.untracedCode + result.untracedCode).uniqued()
        divergence = divergence ?? result.divergence
        report.search.invocations += result.invocations
        report.search.overlappingInvocations += result.overlappingInvocations
        report.search.distinctOutcomes += result.distinctOutcomes
        report.search.contractTraps += result.contractTraps
        if result.stoppedByContractTraps { report.search.scenariosStoppedByContractTraps += 1 }
        if let failure = result.failure {
          report.search.scenarios += 1
          let timeToFind = started.elapsed
          tellProgress(report.search, stage: .explaining)
          var found = explain(failure, of: scenario, index: index)
          found.report.timeToFind = timeToFind
          report.outcome = .failed(found.report)
          report.interruptedBy = found.interruptedBy
          return finished(report)
        }
        if let signal = interruption?.signal {
          report.outcome = .inconclusive(.interrupted(signal: signal))
          return finished(report)
        }
        if result.capped { report.search.cappedScenarios += 1 }
        // A scenario the deadline stopped short of its budget was not explored.
        let cutByDeadline =
          deadline.hasPassed
          && result.overlappingInvocations < request.invocations && !result.capped
          && !result.stoppedByContractTraps
        if !cutByDeadline {
          report.search.scenarios += 1
          report.search.chanceOfNewResults.add(result.chanceOfNewResults)
          // Partial-order reduction promises every interleaving: a budget that ended first did
          // not, and a replayed schedule, which ends the replay, says nothing of the others.
          if let settings = configuration.scheduleSettings, settings.strategy == .dpor,
            settings.replayedSchedule == nil
          {
            if result.exploredEverySchedule {
              report.search.exhaustedScenarios += 1
            } else {
              report.search.scenariosCutByScheduleBudget += 1
            }
          }
        }
      }
    } catch {
      report.outcome = outcome(of: error, scenario: scenario)
      return finished(report)
    }
    if configuration.scheduleSettings?.replayedSchedule != nil {
      // One schedule ran, not the search: its passing proves nothing of the others.
      report.outcome = .inconclusive(
        divergence.map(InconclusiveReason.replayDiverged) ?? .replayedSchedulePassed)
    } else if report.search.scenarios < report.search.plannedScenarios {
      report.outcome = .inconclusive(
        .timeLimit(scenarios: report.search.scenarios, planned: report.search.plannedScenarios))
    } else if report.search.scenariosStoppedByContractTraps > 0 {
      report.outcome = .inconclusive(
        .contractTraps(
          scenarios: report.search.scenariosStoppedByContractTraps,
          limit: Self.contractTrapLimit))
    } else if report.search.scenariosCutByScheduleBudget > 0 {
      report.outcome = .inconclusive(
        .scheduleBudget(
          scenarios: report.search.scenariosCutByScheduleBudget, schedules: invocationBudget))
    } else if report.search.cappedScenarios > 0 {
      report.outcome = .inconclusive(
        .littleOverlap(
          scenarios: report.search.cappedScenarios,
          cap: StressRunner<Subject, Model>.capFactor * configuration.invocations))
    } else if !unseen.unseenSynchronization.isEmpty {
      report.outcome = .inconclusive(.unseenSynchronization(unseen.unseenSynchronization))
    }
    return finished(report)
  }

  /// The invocations each scenario gets: overlapping invocations in stress mode, schedules in schedule mode.
  var invocationBudget: Int {
    configuration.scheduleSettings?.schedules ?? configuration.invocations
  }

  /// Tells the progress sink, if any, how far the check has got.
  func tellProgress(_ search: SearchSummary, stage: CheckProgress.Stage) {
    guard let progress else { return }
    progress(
      CheckProgress(
        target: spec.name, stage: stage, search: search,
        timeLeft: deadline.timeLeft))
  }

  /// The invocations the search gives scenario `index`: the plain budget, or in schedule mode the schedules its strategy gives that scenario.
  ///
  /// Runs that explain a failure keep the plain budget: schedules are numbered and seeded,
  /// so the schedule that failed is among them whatever the scenario's own share.
  func invocationBudget(forScenario index: Int) -> Int {
    guard let settings = configuration.scheduleSettings else { return configuration.invocations }
    // A body is the one scenario there is: it gets the whole budget, not a first scenario's share.
    return configuration.exploresABody
      ? settings.schedules : settings.schedules(forScenario: index)
  }

  /// The seed of scenario `index`'s random pauses or schedule strategy.
  static func scenarioSeed(_ seed: UInt64, index: Int) -> UInt64 {
    SplitMix64.derive(seed, UInt64(index))
  }

  /// How a runner's error ends the check.
  func outcome(of error: RunError, scenario: Scenario) -> CheckOutcome {
    switch error {
    case .operationThrew(let specError):
      var specError = specError
      specError.scenario = specError.scenario ?? scenario
      return .specError(specError)
    case .workerUnavailable(let message):
      return .specError(SpecError(message: message))
    case .killedFromOutside(let signal, let attempts):
      return .killedFromOutside(signal: signal, attempts: attempts)
    case .internalFault(let fault):
      return .internalFault(fault)
    case .interrupted(let signal):
      return .inconclusive(.interrupted(signal: signal))
    case .starved(let starvation):
      return .inconclusive(.starved(starvation))
    }
  }

  private func finished(_ report: CheckReport) -> CheckReport {
    var report = report
    report.elapsed = started.elapsed
    return report
  }
}
