extension CheckSession {
  /// A failure explained: shrunk, measured again, named, and written as a repro file.
  struct Explained {
    var report: FailureReport
    /// The signal that interrupted shrinking, if one did.
    var interruptedBy: Int32?
  }

  /// Shrinks `failure` of scenario `index`, measures how often the result fails, names it and writes its repro.
  func explain(_ failure: ObservedFailure, of scenario: Scenario, index: Int) -> Explained {
    var minimized = (scenario: scenario, failure: failure, steps: 0)
    var shrinkingCutShort = false
    var timeToShrink: Duration?
    if configuration.minimizes {
      let shrinkingStarted = MonotonicInstant.now()
      // An explored body is one call: there is no smaller scenario, only a simpler schedule.
      // A hang outside an isolated child is not run again: each candidate would leave another
      // call that never returns, and wait its whole timeout for it.
      if !configuration.exploresABody,
        !failure.isHangInThisProcess(isolated: configuration.isolated)
      {
        // Measuring the failure's rate is part of shrinking: it sizes the candidates' runs.
        let perFailure = invocationsPerFailure(of: failure, of: scenario, index: index)
        let shrunk = shrink(failure, of: scenario, index: index, invocationsPerFailure: perFailure)
        minimized = (shrunk.scenario, shrunk.failure, shrunk.steps)
        shrinkingCutShort = shrunk.cutShort
      }
      minimized.failure = withFewestPreemptions(
        minimized.failure, of: minimized.scenario, index: index)
      timeToShrink = shrinkingStarted.elapsed
    }
    let recount = recount(minimized.failure, of: minimized.scenario, index: index)
    // An experiment on the minimized scenario needs as many invocations as its failure takes.
    let perMinimizedFailure =
      recount.failures > 0
      ? (recount.invocations + recount.failures - 1) / recount.failures : 8 * invocationBudget / 5
    var diagnosed = diagnose(
      minimized.failure, of: minimized.scenario, index: index,
      experimentBudget: candidateBudget(perFailure: perMinimizedFailure, of: minimized.failure))
    if configuration.scheduleSettings != nil, minimized.failure.evidence.crash != nil,
      let schedule = diagnosed.failure.evidence.crash?.invocation
    {
      diagnosed.failure.schedule = ScheduleObservation(
        index: schedule, trace: trace(of: minimized.scenario, index: index, schedule: schedule),
        findings: [])
    }
    let findings = (diagnosed.failure.schedule?.findings ?? []).filter {
      $0.pattern != diagnosed.diagnosis.pattern
    }
    var report = FailureReport(
      evidence: diagnosed.failure.evidence, diagnosis: diagnosed.diagnosis, timeToFind: .zero,
      original: scenario, scenarioIndex: index, scenario: minimized.scenario,
      shrinkSteps: minimized.steps, shrinkingCutShort: shrinkingCutShort,
      failedInvocations: recount.failures, invocations: recount.invocations,
      repro: .notWritten("not yet written"), trace: diagnosed.failure.schedule?.trace,
      scheduleIndex: diagnosed.failure.schedule?.index,
      findings: findings.isEmpty ? nil : findings)
    report.preemptionsBeforeShrinking = diagnosed.failure.schedule?.preemptionsBeforeShrinking
    report.timeToShrink = timeToShrink
    report.repro = writeRepro(report)
    return Explained(report: report, interruptedBy: interruption?.signal)
  }

  /// The invocations a failure of `scenario` takes to show, measured by running it again: how rare the failure is.
  ///
  /// A rare interleaving may fail once in thousands of invocations; with the plain budget
  /// every shrinking candidate would then look like a pass and nothing would shrink. So the
  /// failing scenario is run again first, up to eight times the plain budget and within the
  /// shrinking time, and the candidates' budget sized from the rate measured. A schedule is
  /// seeded, so its rate is the schedules it took.
  private func invocationsPerFailure(of failure: ObservedFailure, of scenario: Scenario, index: Int)
    -> Int
  {
    let budget = invocationBudget
    if let schedule = failure.schedule { return schedule.index + 1 }
    // Measuring is part of shrinking and ends with it: on a busy machine eight budgets of a
    // slow scenario can take seconds. Taken once: `shrinkDeadline` counts from now.
    let deadline = shrinkDeadline
    if let death = failure.evidence.crash {
      // A crash ends its run: the invocations it took are one sample of its rate, and a lucky
      // early death would size every candidate far too small. So a crash's scenario runs once
      // more for a second sample, in a fresh child that takes a second without progress for a
      // hang, as a candidate's does. A hang is not run again: that would cost its timeout.
      let first = (death.invocation ?? 0) + 1
      var rerun = request(
        scenario, index: index, invocations: 8 * budget, deadline: deadline, fresh: true)
      rerun.hangTimeout = min(Self.candidateHangTimeout, configuration.hangTimeout)
      guard death.kind == .crash, !isPastShrinkingTime(deadline),
        let again = try? run(rerun)
      else { return first }
      guard let second = again.failure?.evidence.crash else { return first + again.invocations }
      return (first + (second.invocation ?? 0) + 1) / 2
    }
    var invocations = 0
    var failures = 0
    while failures == 0, invocations < 8 * budget, !isPastShrinkingTime(deadline) {
      let measure = request(
        scenario, index: index, invocations: budget, deadline: deadline)
      guard let result = try? run(measure) else { break }
      invocations += max(1, result.invocations)
      failures += result.failures
    }
    // None in eight budgets, or before the shrinking time ran out: the candidates get the most
    // invocations there are.
    guard failures > 0 else { return 8 * budget / 5 }
    return (invocations + failures - 1) / failures
  }

  /// Schedule mode: `failure`'s schedule replayed, then shrunk to the one with the fewest preemptions that fails alike, so that its interleaving reads as a short story.
  ///
  /// A crash is left as it is: each of its candidates would cost a fresh child; so is a schedule
  /// given to replay (`RACECHECK_SCHEDULE`, `--schedule`), which was asked for as it is.
  private func withFewestPreemptions(_ failure: ObservedFailure, of scenario: Scenario, index: Int)
    -> ObservedFailure
  {
    guard let settings = configuration.scheduleSettings, settings.replayedSchedule == nil,
      failure.evidence.crash == nil,
      let trace = failure.schedule?.trace, (trace.preemptions ?? 0) > 0
    else { return failure }
    var replay = request(scenario, index: index, invocations: 1, deadline: shrinkDeadline)
    replay.replaying = trace.schedule
    replay.fewerPreemptions = true
    guard var shrunk = (try? run(replay))?.failure, shrunk.failsAlike(failure) else {
      return failure
    }
    // The schedule the search found it in, which its replay line starts from.
    shrunk.schedule?.index = failure.schedule?.index ?? 0
    return shrunk
  }

  /// How long a shrinking candidate may make no progress before it counts as a hang.
  static var candidateHangTimeout: Duration { .seconds(1) }

  /// Five times `perFailure`, the invocations a failure took, at least the fewest ``minimumCandidateInvocations(for:)`` and at most eight times the plain budget.
  ///
  /// Schedule mode keeps the plain budget: its schedules are seeded, so a candidate that
  /// still fails does so within the same schedules whatever the rate.
  func candidateBudget(perFailure: Int, of failure: ObservedFailure) -> Int {
    guard configuration.scheduleSettings == nil else { return invocationBudget }
    return min(8 * invocationBudget, max(minimumCandidateInvocations(for: failure), 5 * perFailure))
  }

  /// The fewest invocations a candidate runs: the plain budget, or for a crash up to 200.
  ///
  /// Never below the plain budget for results that fail: a race needs its calls to
  /// overlap, and a smaller scenario, with fewer calls to overlap, often fails less often
  /// than the one the search found. A crash's candidates each start a fresh child and end
  /// at the crash, so they are sized from the crash, 200 at least.
  func minimumCandidateInvocations(for failure: ObservedFailure) -> Int {
    failure.evidence.crash == nil ? invocationBudget : min(invocationBudget, 200)
  }

  /// When shrinking must stop: the configured shrinking time, and never far past the check's own time limit.
  var shrinkDeadline: Deadline {
    min(.after(configuration.shrinkTimeLimit), explanationDeadline)
  }

  /// When every run that explains a failure must stop: never without a time limit.
  ///
  /// `--time` bounds the whole check: explaining a failure found in time (shrinking it,
  /// counting how often it fails, the runs a diagnosis makes) may run past it by a tenth.
  var explanationDeadline: Deadline {
    .after(configuration.timeLimit.map { $0 + $0 / 10 }, from: started)
  }

  func isPastShrinkingTime(_ deadline: Deadline) -> Bool {
    deadline.hasPassed || interruption?.signal != nil
  }

  /// A request for `scenario`, seeded as scenario `index` of the run; `fresh` runs it in a fresh child.
  ///
  /// Runs that explain a death are fresh: a block an earlier run submitted to a queue may
  /// still crash in a later one, which would pin the death on the wrong scenario. Without
  /// a `deadline`, the request stops at ``explanationDeadline``.
  func request(
    _ scenario: Scenario, index: Int, invocations: Int, untilFirstFailure: Bool = false,
    deadline: Deadline? = nil, fresh: Bool = false
  ) -> RunRequest {
    var request = RunRequest(
      scenario: scenario, seed: Self.scenarioSeed(seed, index: index), invocations: invocations,
      untilFirstFailure: untilFirstFailure, deadline: deadline ?? explanationDeadline)
    request.freshProcess = fresh
    return request
  }

  /// The smallest scenario found, within the shrinking time, that fails the same way.
  private func shrink(
    _ failure: ObservedFailure, of scenario: Scenario, index: Int, invocationsPerFailure: Int
  ) -> (scenario: Scenario, failure: ObservedFailure, steps: Int, cutShort: Bool) {
    let deadline = shrinkDeadline
    var cutShort = false
    // Each failing candidate resizes the budget from the mean invocations a failing run took,
    // counting the first measure as one run: a smaller scenario may fail more often or, with
    // fewer calls to overlap, less. Not from the last run alone: a rare failure may show in
    // its first few invocations.
    var candidateInvocations = candidateBudget(perFailure: invocationsPerFailure, of: failure)
    var invocationsToFail = invocationsPerFailure
    var failingRuns = 1
    var lastRunToFail = invocationsPerFailure
    let provesARace = failure.evidence.history.map(spec.readsATornValue) ?? false
    let fails = { (candidate: Scenario) -> ObservedFailure? in
      guard self.spec.acceptsEveryCall(of: candidate) else { return nil }
      if self.isPastShrinkingTime(deadline) {
        cutShort = true
        return nil
      }
      // A death is sought past results that fail: a racy crash's smaller scenarios often
      // show the race as wrong results first, and stopping there would hide the death.
      var request = self.request(
        candidate, index: index, invocations: candidateInvocations,
        untilFirstFailure: failure.evidence.crash == nil, deadline: deadline,
        fresh: failure.evidence.crash != nil)
      // Invocations take microseconds: a second without progress tells a candidate that hangs,
      // which is the same bug only as a hang. Nor may it outlast the deadline.
      let hangTimeout = min(Self.candidateHangTimeout, self.configuration.hangTimeout)
      request.hangTimeout = min(
        hangTimeout, max(.milliseconds(100), deadline.timeLeft ?? hangTimeout))
      guard let result = try? self.run(request), let found = result.failure,
        found.isSameBug(as: failure, originalProvesARace: provesARace)
      else { return nil }
      if self.configuration.scheduleSettings == nil {
        lastRunToFail = found.evidence.crash.map { ($0.invocation ?? 0) + 1 } ?? result.invocations
        invocationsToFail += lastRunToFail
        failingRuns += 1
        candidateInvocations = self.candidateBudget(
          perFailure: invocationsToFail / failingRuns, of: failure)
      }
      return found
    }
    var start = (scenario: scenario, failure: failure, steps: 0)
    // Calls that never started cannot matter to a crash on a runner thread; dropping them all
    // at once saves many candidates. Not for a crash off the runner threads: a block an
    // earlier invocation submitted may run during a later one.
    if let crash = failure.evidence.crash, crash.runnerThread != nil {
      let started = scenario.truncated(afterCallsInFlight: crash.inFlight.compactMap(\.index))
      if started != scenario, let found = fails(started) {
        start = (started, found, 1)
      }
    }
    var shrinker = Shrinker<ObservedFailure>(
      fails: { candidate in fails(candidate) }, simplerArguments: spec.simplerArguments)
    // A turn that rejected every candidate of a racy failure is weak evidence that the
    // scenario is minimal: run the candidates again, each with twice the invocations, while
    // the shrinking time and eight times the plain budget allow. Not when the scenario's last
    // failing run failed at once: its candidates passed because they lost the bug.
    shrinker.triesHarder = {
      guard self.configuration.scheduleSettings == nil, !self.isPastShrinkingTime(deadline),
        lastRunToFail > 2, candidateInvocations < 8 * self.invocationBudget
      else { return false }
      candidateInvocations = min(8 * self.invocationBudget, 2 * candidateInvocations)
      return true
    }
    guard let shrunk = try? shrinker.shrink(start.scenario, failure: start.failure) else {
      return (start.scenario, start.failure, start.steps, cutShort)
    }
    return (shrunk.scenario, shrunk.failure, start.steps + shrunk.steps, cutShort)
  }

  /// How often the minimized scenario fails when run for the whole budget; a death counts the invocations it took.
  private func recount(_ failure: ObservedFailure, of scenario: Scenario, index: Int) -> (
    failures: Int, invocations: Int
  ) {
    if let crash = failure.evidence.crash { return (1, (crash.invocation ?? 0) + 1) }
    // Schedules are seeded and a failure's rate among them is what the count says: a few
    // hundred say it as well as the whole budget of a body to explore, at a fraction of the time.
    let budget =
      configuration.scheduleSettings == nil
      ? invocationBudget : min(invocationBudget, Self.recountedSchedules)
    guard interruption?.signal == nil,
      let result = try? run(request(scenario, index: index, invocations: budget)),
      result.invocations > 0
    else { return (1, 1) }
    return (result.failures, result.invocations)
  }

  /// The most schedules a failure found in schedule mode is counted again over.
  static var recountedSchedules: Int { 200 }

  /// In schedule mode, the interleaving of schedule `schedule` of `scenario` up to its death, from a run that streams it.
  ///
  /// The schedules are fixed by the seed, so a run of the same schedules dies at the same point.
  private func trace(of scenario: Scenario, index: Int, schedule: Int) -> InterleavingTrace? {
    var request = request(scenario, index: index, invocations: schedule + 1, fresh: true)
    request.tracedSchedule = schedule
    return (try? run(request))?.failure?.schedule?.trace
  }

  /// Writes the failure's repro file: the one place a repro is written.
  private func writeRepro(_ failure: FailureReport) -> ReproFile {
    var repro =
      if let history = failure.evidence.history {
        Repro(
          target: spec.name, seed: seed, scenarioIndex: failure.scenarioIndex,
          configuration: configuration, scenario: failure.scenario,
          diagnosis: failure.diagnosis.pattern, history: spec.recordedHistory(history))
      } else {
        Repro(
          target: spec.name, seed: seed, scenarioIndex: failure.scenarioIndex,
          configuration: configuration, scenario: failure.scenario,
          diagnosis: failure.diagnosis.pattern)
      }
    repro.failure = failure.kind
    repro.schedule = failure.evidence.crash == nil ? failure.trace?.schedule : nil
    do {
      return .written(try repro.write(into: configuration.reproDirectory ?? ".racecheck/repro"))
    } catch {
      return .notWritten("\(error)")
    }
  }
}
