extension CheckSession {
  /// The failure the report shows and its diagnosis.
  struct Diagnosed {
    var failure: ObservedFailure
    var diagnosis: Diagnosis
  }

  /// More runs of a scenario that died, at most, when its death names no specific bug.
  static var extraDeathSamples: Int { 2 }

  /// Names the bug the minimized failure shows, from its evidence alone, or says `unclassified`.
  ///
  /// It takes steps 3 to 7 of the order ``Diagnoser`` documents: a crash, an actor's
  /// reentrancy, the results, whether the failure needs threads, a barrier GCD ignored.
  /// An experiment on the scenario runs `experimentBudget` invocations, by default the plain budget.
  func diagnose(
    _ failure: ObservedFailure, of scenario: Scenario, index: Int, experimentBudget: Int? = nil
  ) -> Diagnosed {
    if failure.evidence.crash != nil {
      return diagnoseDeath(failure, of: scenario, index: index)
    }
    var diagnosis: Diagnosis
    if let named = failure.diagnosis {
      diagnosis = named
    } else {
      // Reentrancy is proven by experiment on the scenario, and an actor's lost update fits
      // the hypotheses of results alone as well: it is tried first, and until a run shows
      // that no call entered an actor during another's await, those hypotheses name nothing.
      let reentrancy =
        failure.evidence.kind == .nonLinearizable
        ? reentrancyEvidence(
          of: scenario, index: index, budget: experimentBudget ?? invocationBudget) : .impossible
      switch reentrancy {
      case .proven(let proven):
        return Diagnosed(failure: failure, diagnosis: proven)
      case .undecided(let reason):
        return Diagnosed(failure: failure, diagnosis: Self.reentrancyUndecided(reason))
      case .impossible, .absent:
        diagnosis = Diagnoser.diagnose(
          failure.evidence.history ?? History(operations: []), spec: spec,
          escapedReads: failure.schedule?.escapedReads ?? [])
      }
    }
    // A name of the race family, or the rule that gives it to a failure nothing else names,
    // stands only when the same calls made one after another do not fail.
    let concurrentOnly =
      diagnosis.pattern == .unclassified
      && ConcurrentOnlyFailure.applies(to: spec, scenario: scenario)
    if case .nonLinearizable = failure.evidence, scenario.activeThreads > 1,
      diagnosis.pattern.namesOnlyAFamily || concurrentOnly
    {
      switch sequentialOutcome(of: scenario, index: index) {
      case .failed(let order, let sequential, let invocations):
        // A subject that writes on its own queue races with itself on one thread too; then
        // the sequential history shows the same race, and the name stands.
        let sequentialPattern = Diagnoser.diagnose(
          sequential.evidence.history ?? History(operations: []), spec: spec
        ).pattern
        if diagnosis.pattern == .unclassified || sequentialPattern != diagnosis.pattern {
          diagnosis = SequentialFailure.diagnosis(order: order, invocations: invocations)
        }
      case .passed(let invocations, let orders) where concurrentOnly:
        diagnosis = ConcurrentOnlyFailure.diagnosis(passing: invocations, orders: orders)
      case .passed, .unknown:
        break
      }
    }
    return Diagnosed(
      failure: failure,
      diagnosis: Diagnoser.refine(diagnosis, findings: failure.schedule?.findings ?? []))
  }

  /// What `scenario`'s parallel calls do when made one after another, in each order the threads allow (see ``SequentialFailure``).
  private func sequentialOutcome(of scenario: Scenario, index: Int) -> SequentialFailure.Outcome {
    let orders = SequentialFailure.orders(of: scenario)
    var passed = 0
    for order in orders {
      guard
        let result = try? run(
          request(
            SequentialFailure.scenario(order, of: scenario), index: index,
            invocations: invocationBudget, untilFirstFailure: true))
      else { return .unknown }
      if let failure = result.failure, failure.evidence.kind == .nonLinearizable {
        return .failed(order: order, failure: failure, invocations: result.invocations)
      }
      // A death of calls on one thread is no evidence either way for results.
      guard result.failure == nil else { return .unknown }
      passed += result.invocations
    }
    return .passed(invocations: passed, orders: orders.count)
  }

  /// The diagnosis of a failure of `async` calls that an actor's reentrancy may explain, when no run could tell.
  static func reentrancyUndecided(_ reason: String) -> Diagnosis {
    Diagnosis(
      .unclassified,
      evidence:
        "the calls are async, so an actor's reentrancy (a call entering the actor during "
        + "another's await) would explain these results as well as any pattern of results alone, "
        + "and nothing ruled it out: \(reason); the minimized scenario and history below are "
        + "the evidence")
  }

  /// A request to run a scenario that died once more; a run that hangs tells nothing new, so it is not waited on long.
  private func rerunRequest(_ scenario: Scenario, index: Int, invocations: Int) -> RunRequest {
    var rerun = request(scenario, index: index, invocations: invocations, fresh: true)
    rerun.hangTimeout = min(configuration.hangTimeout, .seconds(1))
    return rerun
  }

  /// The death that names its bug best: `failure`, or one of up to ``extraDeathSamples`` more runs of its scenario.
  ///
  /// A racy bug dies differently from run to run, and some deaths tell less than others
  /// (see ``CrashDiagnoser/anotherCrashMayTellMore(than:)``). The report shows the most
  /// specific diagnosis found, with the evidence of the run that gave it, and says so when
  /// that was not the first run.
  private func diagnoseDeath(_ failure: ObservedFailure, of scenario: Scenario, index: Int)
    -> Diagnosed
  {
    let took = (failure.evidence.crash?.invocation ?? 0) + 1
    let budget = min(invocationBudget, max(200, 4 * took))
    func sample(_ failure: ObservedFailure) -> (Diagnosed, CrashDiagnoser)? {
      guard let crash = failure.evidence.crash else { return nil }
      var diagnoser = CrashDiagnoser(
        evidence: crash, scenario: scenario,
        arrayAfter: { [spec] in spec.arrayElements(after: $0) },
        arrayStep: { [spec] in spec.arrayStep(of: $0) },
        crashesSequentially: { [self] in
          guard
            let result = try? run(
              request(
                ConcurrentOnlyFailure.inTurn(scenario), index: index, invocations: budget,
                fresh: true))
          else { return nil }
          if let crash = result.failure?.evidence.crash { return crash.kind != .hang }
          return false
        })
      diagnoser.fillingCall = IndexGuardProbe.fillingCall(of: spec)
      diagnoser.trapsByContract = { [spec] in
        spec.operation(named: $0.operation)?.requirement != nil
      }
      diagnoser.runAlone = { [self] probe, invocations, settle in
        // An experiment sees every trap: its read past the end is invalid on purpose. The
        // runs after the first, in the same child, collect the death of a block an earlier
        // one submitted.
        let settled = ContinuousClock.now + settle
        var runs = 0
        repeat {
          guard
            let result = try? runner.run(
              request(
                probe, index: index, invocations: invocations, untilFirstFailure: true,
                fresh: runs == 0)), result.invocations > 0
          else { return nil }
          if let failure = result.failure { return .failed(failure.evidence) }
          runs += 1
        } while runs < 2 || (ContinuousClock.now < settled && interruption?.signal == nil)
        return .passed
      }
      return (Diagnosed(failure: failure, diagnosis: diagnoser.diagnose()), diagnoser)
    }
    guard let first = sample(failure) else {
      return Diagnosed(failure: failure, diagnosis: Diagnosis(.unclassified, evidence: ""))
    }
    var best = first
    var runs = 1
    while runs <= Self.extraDeathSamples, interruption?.signal == nil,
      !failure.isHangInThisProcess(isolated: configuration.isolated),
      best.1.anotherCrashMayTellMore(than: best.0.diagnosis),
      let rerun = (try? run(rerunRequest(scenario, index: index, invocations: budget)))?
        .failure,
      rerun.evidence.crash != nil, let next = sample(rerun)
    {
      runs += 1
      if next.0.diagnosis.pattern.specificity > best.0.diagnosis.pattern.specificity {
        best = next
        best.0.diagnosis.evidence +=
          " (seen in run \(runs) of this scenario; the first run "
          + "\(first.0.failure.evidence.crash.map(\.outcome) ?? "died"), "
          + "which names \(first.0.diagnosis.pattern.rawValue))"
      }
    }
    return best.0
  }
}
