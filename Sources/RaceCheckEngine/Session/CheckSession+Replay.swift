extension CheckSession {
  /// The default time budget of a stress replay.
  static var defaultReplayTime: Duration { .seconds(30) }

  /// Runs `repro`'s scenario again: its recorded schedule once, exactly, or in stress mode until the failure shows or `timeLimit` runs out.
  func replay(_ repro: Repro, timeLimit: Duration) -> ReplayReport {
    defer { runner.shutDown() }
    var report = ReplayReport(
      repro: repro, outcome: .notReproduced, invocations: 0, failures: 0, timeLimit: timeLimit,
      elapsed: .zero)
    report.voidOperations = spec.voidOperations
    let index = repro.scenarioIndex
    let deadline = Deadline.after(timeLimit, from: started)
    // Each round runs the scenario for one scenario's budget, so the rate measured covers whole rounds.
    var round = request(repro.scenario, index: index, invocations: invocationBudget)
    round.replaying = repro.schedule
    var rounds = 0
    do throws(RunError) {
      repeat {
        rounds += 1
        var search = SearchSummary()
        search.invocations = report.invocations
        tellProgress(search, stage: .replaying(round: rounds, failures: report.failures))
        round.deadline = deadline
        let result = try run(round)
        report.invocations += result.invocations
        report.failures += result.failures
        report.divergence = result.divergence
        report.trace = result.replayedTrace
        if let failure = result.failure {
          let diagnosed = diagnose(failure, of: repro.scenario, index: index)
          report.evidence = diagnosed.failure.evidence
          report.diagnosis = diagnosed.diagnosis
          report.trace = report.trace ?? failure.schedule?.trace
          report.outcome = .reproduced
          break
        }
        if repro.schedule != nil { break }
        if let signal = interruption?.signal {
          report.outcome = .inconclusive("interrupted by \(SignalName.name(of: signal))")
          break
        }
      } while !deadline.hasPassed
    } catch {
      switch outcome(of: error, scenario: repro.scenario) {
      case .specError(let specError): report.outcome = .specError(specError)
      case .inconclusive(let reason): report.outcome = .inconclusive(reason.description)
      case .killedFromOutside(let signal, let attempts):
        report.outcome = .inconclusive(
          "the isolated child was killed by \(SignalName.name(of: signal)) \(attempts) times from outside"
        )
      case .internalFault(let fault):
        report.outcome = .inconclusive("\(fault.summary): this is a racecheck bug")
      case .passed, .failed: break
      }
    }
    report.elapsed = started.elapsed
    return report
  }
}
