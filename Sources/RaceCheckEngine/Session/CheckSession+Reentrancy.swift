extension CheckSession {
  /// What the reentrancy experiment showed about a failure whose scenario makes `async` calls.
  enum ReentrancyEvidence {
    /// The scenario makes no `async` calls, or runs one thread: no call can enter an actor during another's `await`.
    case impossible
    /// A failing run that recorded every hop of its calls' tasks shows no call entering an actor during another's `await`.
    case absent
    /// A failing run shows the reentry and the failure goes away with the suspended operation alone (``ActorReentrancy``).
    case proven(Diagnosis)
    /// Neither proven nor ruled out, for the reason given: the results may show a reentrancy that no run made visible.
    case undecided(String)
  }

  /// The most invocations the probe runs, in budgets, to see a failure its recorded hops explain.
  ///
  /// A probed run makes its calls as a plain one does (``AsyncBatch``), so it fails about as
  /// often; the second budget is a margin for a rare failure, spent only when it is needed.
  static var probeBudgets: Int { 2 }

  /// Tells whether a failure of `scenario` is an actor's reentrancy (``ActorReentrancy``), by experiment.
  ///
  /// Two runs of the minimized scenario: one of up to ``probeBudgets`` times `budget`
  /// invocations that records the hops of its calls and stops at a failure, which shows a
  /// call running on an actor during another's `await`; and one with the suspended call's
  /// operation run alone, which must pass every invocation of a budget at least eight
  /// times what the first needed to fail.
  func reentrancyEvidence(of scenario: Scenario, index: Int, budget: Int) -> ReentrancyEvidence {
    let calls = scenario.allCalls
    let isAsync = { [spec] (call: Scenario.Call) in
      spec.operation(named: call.operation)?.isAsync == true
    }
    guard scenario.activeThreads > 1, calls.contains(where: isAsync) else { return .impossible }
    guard calls.allSatisfy(isAsync) else {
      return .undecided(
        "the scenario mixes async and synchronous calls, and the probe that records each "
          + "task's hops runs scenarios of async calls only")
    }
    var probing = request(
      scenario, index: index, invocations: Self.probeBudgets * budget, untilFirstFailure: true,
      fresh: true)
    probing.asyncProbe = AsyncProbe()
    guard let probed = try? run(probing), let failure = probed.failure,
      case .nonLinearizable(let history, _) = failure.evidence, let hops = failure.asyncHops
    else {
      return .undecided(
        "the probe that records each task's hops did not see the failure in \(probing.invocations) invocations"
      )
    }
    guard
      let reentry = ActorReentrancy.reentry(in: hops, continuation: symbolizedContinuations(hops))
    else { return .absent }
    let operation = history.operations[reentry.suspended].name
    var alone = request(
      scenario, index: index, invocations: max(budget, 8 * probed.invocations),
      untilFirstFailure: true, fresh: true)
    alone.asyncProbe = AsyncProbe(exclusiveOperation: operation)
    guard let passing = try? run(alone), passing.invocations > 0 else {
      return .undecided("the run with the calls of \(operation) alone did not finish")
    }
    guard passing.failures == 0 else {
      return .undecided(
        "a call entered the actor during an await of \(operation), but with the calls of "
          + "\(operation) run alone the scenario still fails")
    }
    // In stress mode a run the deadline cut short reached fewer overlapping invocations.
    guard
      configuration.scheduleSettings != nil || passing.overlappingInvocations >= alone.invocations
    else {
      return .undecided(
        "the run with the calls of \(operation) alone was cut short after \(passing.invocations) invocations"
      )
    }
    return .proven(
      ActorReentrancy.diagnosis(reentry, history: history, passingAlone: passing.invocations))
  }

  /// The continuations of `hops` that left an actor, symbolized in one batch.
  private func symbolizedContinuations(_ hops: [ExecutorHop]) -> (CodeAddress) -> SymbolizedFrame? {
    let addresses = Array(Set(hops.filter { $0.leftExecutor != nil }.flatMap(\.continuations)))
    let stacks = Symbolizer().symbolize(
      addresses.map { [RawFrame(pc: $0.offset, module: $0.module, offset: $0.offset)] },
      firstFrameIsFault: true)
    let frames = Dictionary(
      uniqueKeysWithValues: zip(addresses, stacks.map(\.frames.first)))
    return { frames[$0] ?? nil }
  }
}
