import Foundation

extension Spec: Checkable {
  public func check(_ configuration: Configuration) -> CheckReport {
    if configuration.schedule != nil {
      return ScheduleCheck(spec: self, configuration: configuration).run()
    }
    return StressCheck(spec: self, configuration: configuration).run()
  }

  /// Names a built-in model (``HistoryModel``) with its initial state; a spec's own model by the spec's name.
  public func recordedHistory(_ history: History) -> RecordedHistory {
    guard let model = model as? any HistoryModel else {
      return RecordedHistory(history, model: name, initial: nil)
    }
    return RecordedHistory(history, model: type(of: model).name, initial: model.state)
  }

  public func replay(_ repro: Repro, invocations: Int) throws(ReproError) -> ReplayReport {
    guard repro.target == name else {
      throw .wrongTarget(path: "", recorded: repro.target, expected: name)
    }
    let prepared: PreparedScenario<Subject, Model>
    do {
      prepared = try PreparedScenario(repro.scenario, spec: self)
    } catch {
      throw .scenarioMismatch(path: "", error)
    }
    var report = ReplayReport(
      repro: repro, invocations: 0, failures: 0, voidOperations: voidOperations)
    if let schedule = repro.schedule {
      replay(repro, schedule: schedule, into: &report)
      return report
    }
    let runner = StressRunner(spec: self, threads: max(1, repro.scenario.parallel.count))
    defer { runner.shutDown() }
    do {
      let result = try runner.run(prepared, invocations: invocations, stopAtFirstFailure: false)
      report.invocations = result.invocations
      report.failures = result.failures
      if let failure = result.firstFailure {
        report.history = failure.history
        report.diagnosis = Diagnoser.diagnose(failure.history, spec: self)
      }
    } catch {
      report.specError = SpecError(
        message: error.description, history: error.history, scenario: repro.scenario)
    }
    return report
  }

  /// Runs a schedule-mode repro's scenario once, under its recorded schedule.
  private func replay(_ repro: Repro, schedule: [Int], into report: inout ReplayReport) {
    var configuration = repro.configuration
    configuration.schedule = configuration.schedule ?? ScheduleSettings()
    let check = ScheduleCheck(spec: self, configuration: configuration)
    do {
      let replayed = try check.replay(repro.scenario, schedule: schedule)
      report.invocations = 1
      report.trace = replayed.trace
      report.divergence = replayed.divergence
      if let failure = replayed.failure {
        report.failures = 1
        report.history = failure.history
        report.diagnosis = failure.diagnosis ?? Diagnoser.diagnose(failure.history, spec: self)
      }
    } catch let error as OperationError {
      report.specError = SpecError(
        message: error.description, history: error.history, scenario: repro.scenario)
    } catch {
      report.specError = SpecError(message: "\(error)", scenario: repro.scenario)
    }
  }

  /// Says what makes the spec unusable before anything runs, or nil when it is sound.
  func validationError() -> String? {
    guard !operations.isEmpty else { return "the spec '\(name)' has no operations" }
    var names = Set<String>()
    for operation in operations {
      guard names.insert(operation.name).inserted else {
        return "the spec '\(name)' has two operations named '\(operation.name)'"
      }
      var random = SplitMix64(seed: 0)
      let arguments = operation.generators.map { $0.draw(&random, 1) }
      if let problem = operation.validate(arguments) {
        return "operation '\(operation.name)' of '\(name)': \(problem)"
      }
    }
    return nil
  }
}

/// One stress check of a spec: scenarios until one fails, then shrinking, diagnosis and the report.
struct StressCheck<Subject, Model: Hashable & Sendable> {
  let spec: Spec<Subject, Model>
  let configuration: Configuration
  /// The link to the parent when this check runs in an isolated child.
  var link: WorkerLink? = nil

  func run() -> CheckReport {
    let started = MonotonicClock.now()
    var report = search(started: started)
    report.seconds = Double(MonotonicClock.now() - started) / 1e9
    return report
  }

  private func search(started: Int64) -> CheckReport {
    let seed = configuration.effectiveSeed(forSpecNamed: spec.name)
    var report = CheckReport(
      target: spec.name, seed: seed, configuration: configuration, scenarios: 0, invocations: 0,
      seconds: 0,
      voidOperations: spec.voidOperations)
    if let problem = spec.validationError() {
      report.specError = SpecError(message: problem)
      return report
    }
    let generator = ScenarioGenerator(spec: spec, shape: configuration.shape)
    let runner = StressRunner(spec: spec, threads: configuration.shape.threads, link: link)
    defer { runner.shutDown() }
    let deadline = configuration.timeLimit.map { started + Int64($0 * 1e9) }
    var scenario = Scenario()
    do {
      for index in 0..<configuration.scenarios {
        if let deadline, MonotonicClock.now() > deadline { break }
        scenario = generator.scenario(seed: seed, index: index)
        let prepared = try PreparedScenario(scenario, spec: spec)
        let result = try runner.run(
          prepared, invocations: configuration.invocations,
          deadline: deadline, seed: SplitMix64.derive(seed, UInt64(index)))
        report.scenarios += 1
        report.invocations += result.invocations
        if let failure = result.firstFailure {
          let secondsToFind = Double(MonotonicClock.now() - started) / 1e9
          report.failure = try explain(
            failure, of: scenario, index: index, seed: seed, runner: runner)
          report.failure?.secondsToFind = secondsToFind
          return report
        }
      }
    } catch let error as OperationError {
      report.specError = SpecError(
        message: error.description, history: error.history, scenario: scenario)
    } catch {
      report.specError = SpecError(message: "\(error)", scenario: scenario)
    }
    return report
  }

  /// Shrinks a failure, names it, writes its repro file and assembles its report.
  private func explain(
    _ failure: StressRunner<Subject, Model>.Failure, of scenario: Scenario, index: Int,
    seed: UInt64,
    runner: StressRunner<Subject, Model>
  ) throws -> FailureReport {
    var minimized = (scenario: scenario, failure: failure, steps: 0)
    let budget = try confirmationBudget(scenario, runner: runner)
    if configuration.minimizes, let budget {
      let deadline = configuration.shrinkDeadline()
      let shrinker = Shrinker<StressRunner<Subject, Model>.Failure>(
        fails: { candidate throws(OperationError) in
          guard MonotonicClock.now() < deadline,
            let prepared = try? PreparedScenario(candidate, spec: spec)
          else { return nil }
          return try runner.run(prepared, invocations: budget).firstFailure
        },
        simplerArguments: spec.simplerArguments)
      minimized = try shrinker.shrink(scenario, failure: failure)
    }
    // A last run of the minimized scenario counts how often it fails, for the report.
    let prepared = try PreparedScenario(minimized.scenario, spec: spec)
    let recount = try runner.run(
      prepared, invocations: budget ?? 8 * configuration.invocations, stopAtFirstFailure: false)
    let history = minimized.failure.history
    var diagnosis = Diagnoser.diagnose(history, spec: spec)
    if diagnosis.pattern == .unclassified, minimized.scenario.activeThreads > 1,
      ConcurrentOnlyFailure.applies(to: spec.model)
    {
      let inTurn = try PreparedScenario(
        ConcurrentOnlyFailure.inTurn(minimized.scenario), spec: spec)
      let result = try runner.run(inTurn, invocations: configuration.invocations)
      if result.failures == 0 {
        diagnosis = ConcurrentOnlyFailure.diagnosis(passingInTurn: result.invocations)
      }
    }
    var report = FailureReport(
      kind: .nonLinearizable, secondsToFind: 0, original: scenario, scenarioIndex: index,
      scenario: minimized.scenario,
      history: history,
      explanation: explanation(of: minimized.failure, scenario: prepared),
      diagnosis: diagnosis, failedInvocations: recount.failures, invocations: recount.invocations,
      shrinkSteps: minimized.steps)
    let repro = Repro(
      target: spec.name, seed: seed, scenarioIndex: index, configuration: configuration,
      scenario: minimized.scenario, diagnosis: diagnosis.pattern,
      history: spec.recordedHistory(history))
    do {
      report.reproPath = try repro.write(into: configuration.reproDirectory ?? ".racecheck/repro")
    } catch {
      report.reproError = "\(error)"
    }
    return report
  }

  /// The invocations a run of the failing scenario needs to show the failure again, or nil when it does not come back at all.
  ///
  /// A rare interleaving may fail once in thousands of invocations; with the plain budget
  /// every candidate would then look like a pass and nothing would shrink. So the failing
  /// scenario is run again first, and the budget raised (up to eight-fold) until a
  /// candidate that keeps the bug can be expected to show it about five times.
  private func confirmationBudget(_ scenario: Scenario, runner: StressRunner<Subject, Model>)
    throws(OperationError)
    -> Int?
  {
    guard let prepared = try? PreparedScenario(scenario, spec: spec) else { return nil }
    let budget = configuration.invocations
    var invocations = 0
    var failures = 0
    while failures == 0 && invocations < 8 * budget {
      let result = try runner.run(prepared, invocations: budget, stopAtFirstFailure: false)
      invocations += result.invocations
      failures += result.failures
    }
    guard failures > 0 else { return nil }
    let perFailure = (invocations + failures - 1) / failures
    return min(8 * budget, max(budget, 5 * perFailure))
  }

  private func explanation(
    of failure: StressRunner<Subject, Model>.Failure, scenario: PreparedScenario<Subject, Model>
  ) -> Explanation {
    Explanation(
      history: failure.history, longestPrefix: failure.longestPrefix,
      state: failure.stateAfterPrefix, steps: scenario.steps)
  }
}

/// How reports show a model's state.
enum ModelDescription {
  static func describe<Model>(_ model: Model) -> String {
    if let model = model as? any HistoryModel { return model.state.description }
    return String(describing: model)
  }
}
