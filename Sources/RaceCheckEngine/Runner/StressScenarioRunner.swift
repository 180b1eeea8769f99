/// Runs scenarios in stress mode, in this process: each request runs one scenario many times on real threads.
final class StressScenarioRunner<Subject, Model: Hashable & Sendable>: ScenarioRunning {
  private let spec: Spec<Subject, Model>
  private let observer: (any RunObserver)?
  private let shouldStop: @Sendable () -> Bool
  /// Made for the widest scenario asked for so far, and kept: its threads start once.
  private var runner: StressRunner<Subject, Model>?
  /// The stacks of Thread Sanitizer's reports, symbolized once each.
  private lazy var raceStacks = SanitizerStacks()

  /// Creates a runner; `shouldStop` is asked between invocations whether the check was interrupted.
  init(
    spec: Spec<Subject, Model>, observer: (any RunObserver)? = nil,
    shouldStop: @escaping @Sendable () -> Bool = { false }
  ) {
    self.spec = spec
    self.observer = observer
    self.shouldStop = shouldStop
  }

  func shutDown() {
    runner?.shutDown()
    runner = nil
  }

  func run(_ request: RunRequest) throws(RunError) -> RunResult {
    let prepared: PreparedScenario<Subject, Model>
    do {
      prepared = try PreparedScenario(request.scenario, spec: spec, probe: request.asyncProbe)
    } catch {
      throw .operationThrew(SpecError(message: error.description, scenario: request.scenario))
    }
    let threads = max(1, request.scenario.parallel.count)
    if let current = runner, current.threadCount < threads {
      current.shutDown()
      runner = nil
    }
    let runner =
      self.runner ?? StressRunner(spec: spec, threads: threads, observer: observer)
    self.runner = runner
    let found: StressRunner<Subject, Model>.Result
    do {
      found = try runner.run(
        prepared, invocations: request.invocations,
        stopAtFirstFailure: request.untilFirstFailure, deadline: request.deadline,
        seed: request.seed, shouldStop: shouldStop)
    } catch {
      // A call that never returned is the code's hang, not a broken spec.
      guard let timedOut = error.error as? CompletionTimeout else {
        throw .operationThrew(
          SpecError(
            message: error.description, history: error.history, scenario: request.scenario))
      }
      return RunResult(
        invocations: 1, failures: 1,
        failure: ObservedFailure(
          evidence: .death(
            .unreturnedCall(timedOut, thread: error.thread, index: error.index))))
    }
    var result = RunResult(
      invocations: found.invocations, overlappingInvocations: found.concurrentInvocations,
      distinctOutcomes: found.distinctOutcomes, chanceOfNewResults: found.chanceOfNewResults,
      failures: found.failures, capped: found.capped)
    if let (report, history) = found.firstRace {
      let decoded = SanitizerRace.decoded(report, scenario: request.scenario, stacks: raceStacks)
      result.failure = ObservedFailure(
        evidence: .sanitizerRace(decoded.race, .finished(history)), diagnosis: decoded.diagnosis)
    } else if let failure = found.firstFailure {
      result.failure = ObservedFailure(
        evidence: .nonLinearizable(
          failure.history,
          Explanation(
            history: failure.history, longestPrefix: failure.longestPrefix,
            state: failure.stateAfterPrefix, steps: prepared.steps)))
    }
    if request.asyncProbe != nil { result.failure?.asyncHops = prepared.asyncCalls.hops() }
    return result
  }
}
