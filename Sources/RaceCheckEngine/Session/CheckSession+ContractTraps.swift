extension CheckSession {
  /// The most traps by contract one request may excuse before its run stops short of its budget.
  static var contractTrapLimit: Int { 20 }

  /// Runs `request` on the runner, excusing the traps the spec's requirements allow: every run of the session goes through here.
  ///
  /// A call that traps where some order of what had run leaves its requirement false
  /// (``Operation/requires(_:)``) did what its contract says. The invocation is not a
  /// failure: the runner is asked for the rest of the budget, in a fresh child, until it
  /// is spent, a real failure shows, or ``contractTrapLimit`` traps are excused.
  func run(_ request: RunRequest) throws(RunError) -> RunResult {
    var total = RunResult(chanceOfNewResults: 0)
    var remaining = request
    while true {
      let result = try runner.run(remaining)
      total.invocations += result.invocations
      total.overlappingInvocations += result.overlappingInvocations
      total.distinctOutcomes += result.distinctOutcomes
      // Each part of the budget is estimated alone; the least settled stands for the whole.
      total.chanceOfNewResults = max(total.chanceOfNewResults, result.chanceOfNewResults)
      total.failures += result.failures
      total.capped = total.capped || result.capped
      total.noteUnseen(result.unseenSynchronization)
      total.noteUntraced(result.untracedCode)
      total.exploredEverySchedule = result.exploredEverySchedule
      total.divergence = result.divergence
      total.replayedTrace = result.replayedTrace
      guard let failure = result.failure, isContractTrap(failure, of: request.scenario) else {
        total.failure = result.failure
        return total
      }
      total.failures = max(0, total.failures - 1)
      total.contractTraps += 1
      let spent = request.replaying != nil ? 1 : total.overlappingInvocations
      if spent >= request.invocations || result.capped { return total }
      if total.contractTraps >= Self.contractTrapLimit {
        total.stoppedByContractTraps = true
        return total
      }
      remaining.invocations = request.invocations - spent
      remaining.freshProcess = true
    }
  }

  /// Whether `failure` is a trap of a runner thread in a call whose requirement some order of what had run leaves false.
  func isContractTrap(_ failure: ObservedFailure, of scenario: Scenario) -> Bool {
    guard spec.hasRequirements, let crash = failure.evidence.crash, crash.kind == .crash,
      let thread = crash.runnerThread,
      let trapping = crash.inFlight.first(where: { $0.thread == thread })?.index,
      let path = scenario.callPath(ofHistoryIndex: trapping)
    else { return false }
    var inFlight: [Int: Int] = [:]
    for call in crash.inFlight {
      if let index = call.index,
        case .parallel(let column, let position) = scenario.callPath(ofHistoryIndex: index)
      {
        inFlight[column] = position
      }
    }
    return spec.allowsTrap(at: path, of: scenario, inFlight: inFlight)
  }
}
