/// A failing schedule with one of its preemptions taken back: the running thread goes on at that point.
///
/// Before the point, the strategy makes the schedule's own choices. After it, the code may
/// take another path, so the recorded choices are only a guide: ``Tail/following`` keeps
/// to them wherever they can run, ``Tail/runningOn`` lets the running thread go on wherever
/// it can, which takes back every later preemption too.
struct FewerPreemptionsStrategy: ScheduleStrategy {
  /// What the strategy does after the preemption it takes back.
  enum Tail: CaseIterable {
    /// The recorded choices, wherever the chosen thread can run.
    case following
    /// The running thread, wherever it can go on.
    case runningOn
  }

  /// The failing schedule's choices.
  let choices: [Int]
  /// The position in ``choices`` of the preemption taken back.
  let withdrawn: Int
  let tail: Tail

  mutating func beginSchedule(_ index: Int) -> Bool { index == 0 }

  mutating func threadCreated(_ thread: Int) {}

  mutating func choose(_ point: SchedulingPoint) -> Int {
    let goesOn = point.enabled.contains(point.running) ? point.running : nil
    let recorded = choices.indices.contains(point.step) ? choices[point.step] : nil
    let recordedCanRun = recorded.map(point.enabled.contains) == true
    if point.step == withdrawn, let goesOn { return goesOn }
    if point.step > withdrawn, tail == .runningOn, let goesOn { return goesOn }
    if recordedCanRun, let recorded { return recorded }
    return goesOn ?? point.enabled[0]
  }

  mutating func endSchedule(steps: Int, waiting: [StepFootprint?]) {}
}

extension ScheduleScenarioRunner {
  /// The most schedules one failure's preemptions are shrunk with.
  static var preemptionShrinkingBudget: Int { 200 }

  /// Among the schedules that fail as `failure` does, the one with the fewest preemptions found by taking them back one at a time.
  ///
  /// Greedy, as a scenario is shrunk: each preemption of the best schedule so far is taken
  /// back, latest first, with either tail; a candidate that fails alike with fewer
  /// preemptions becomes the best, and the search starts again from it. Every candidate is
  /// a schedule that ran, so the one reported replays exactly; the search stops when no
  /// preemption can be taken back, after ``preemptionShrinkingBudget`` schedules, or at
  /// `deadline`.
  func withFewestPreemptions(
    _ failure: ObservedFailure, scenario: Scenario,
    makeRunner: (any ScheduleStrategy) -> ScheduleRunner<Subject, Model>,
    checker: OutcomeChecker<Model>, deadline: Deadline
  ) -> ObservedFailure {
    guard var best = failure.schedule?.trace, best.preemptions != nil else { return failure }
    var shrunk = failure
    var tries = 0
    var improved = true
    while improved {
      improved = false
      candidates: for withdrawn in (best.preemptionSteps ?? []).reversed() {
        for tail in FewerPreemptionsStrategy.Tail.allCases {
          guard tries < Self.preemptionShrinkingBudget, !deadline.hasPassed else {
            break candidates
          }
          tries += 1
          let candidateRunner = makeRunner(
            FewerPreemptionsStrategy(choices: best.schedule, withdrawn: withdrawn, tail: tail))
          guard let outcome = candidateRunner.run(schedule: 0),
            var candidate = self.failure(
              of: outcome, report: nil, scenario: scenario, runner: candidateRunner,
              checker: checker),
            candidate.failsAlike(failure),
            let trace = candidate.schedule?.trace,
            (trace.preemptions ?? .max) < (best.preemptions ?? 0)
          else { continue }
          candidate.schedule?.index = failure.schedule?.index ?? 0
          shrunk = candidate
          best = trace
          improved = true
          break candidates
        }
      }
    }
    return shrunk
  }
}

extension ObservedFailure {
  /// Whether another schedule of the same scenario shows the same failure: the same kind, the same named bug, and for an explored body the same first expectation.
  func failsAlike(_ original: ObservedFailure) -> Bool {
    evidence.kind == original.evidence.kind
      && diagnosis?.pattern == original.diagnosis?.pattern
      && evidence.failedExpectations?.first?.location
        == original.evidence.failedExpectations?.first?.location
  }
}
