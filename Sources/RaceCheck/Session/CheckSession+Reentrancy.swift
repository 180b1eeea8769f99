extension CheckSession {
  /// Names `actor-reentrancy` for a failure of `async` calls when the evidence proves it (``ActorReentrancy``), else nil.
  ///
  /// Two runs of the minimized scenario: one of up to `budget` invocations that records
  /// the hops of its calls and stops at a failure, which shows a call running on an actor
  /// during another's `await`; and one with the suspended call's operation run alone,
  /// which must pass every invocation of a budget at least eight times what the first
  /// needed to fail.
  func diagnoseActorReentrancy(of scenario: Scenario, index: Int, budget: Int) -> Diagnosis? {
    let calls = scenario.allCalls
    guard scenario.activeThreads > 1,
      calls.allSatisfy({ spec.operation(named: $0.operation)?.isAsync == true })
    else { return nil }
    var probing = request(
      scenario, index: index, invocations: budget, untilFirstFailure: true, fresh: true)
    probing.asyncProbe = AsyncProbe()
    guard let probed = try? run(probing), let failure = probed.failure,
      case .nonLinearizable(let history, _) = failure.evidence, let hops = failure.asyncHops,
      let reentry = ActorReentrancy.reentry(in: hops, continuation: symbolizedContinuations(hops))
    else { return nil }
    let operation = history.entries[reentry.suspended].call.operation
    var alone = request(
      scenario, index: index, invocations: max(budget, 8 * probed.invocations),
      untilFirstFailure: true, fresh: true)
    alone.asyncProbe = AsyncProbe(exclusiveOperation: operation)
    // In stress mode a run the deadline cut short reached fewer overlapping invocations.
    guard let passing = try? run(alone), passing.failures == 0, passing.invocations > 0,
      configuration.schedule != nil || passing.overlappingInvocations >= alone.invocations
    else { return nil }
    return ActorReentrancy.diagnosis(reentry, history: history, passingAlone: passing.invocations)
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
