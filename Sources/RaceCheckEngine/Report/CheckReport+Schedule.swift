extension CheckReport {
  /// The report of a failure found in schedule mode: the minimized scenario, then the interleaving that broke it.
  func scheduleDescription(_ failure: FailureReport, _ trace: InterleavingTrace) -> String {
    let headline: String
    switch failure.kind {
    case .dataRace: headline = "has a data race"
    case .deadlock: headline = "deadlocks"
    case .stepBound: headline = "does not finish: a schedule ran past its step bound"
    default: headline = "is not linearizable"
    }
    let results = failure.kind == .nonLinearizable ? failure.history.operations.map(\.result) : nil
    var lines = [
      "racecheck: \(target) \(headline)",
      "",
      "Diagnosis: \(failure.diagnosis.pattern.rawValue)",
      "  \(failure.diagnosis.evidence)",
    ]
    for finding in failure.findings ?? [] {
      lines.append("Also seen: \(finding.pattern.rawValue): \(finding.evidence)")
    }
    lines += [
      "",
      "Minimized scenario (\(failure.original.size) operations shrunk to \(failure.scenario.size) in "
        + "\(failure.shrinkSteps) step\(failure.shrinkSteps == 1 ? "" : "s")\(failure.shrinkingNote))"
        + (results == nil ? ":" : ", with the results of the failing schedule:"),
      ScenarioTable(scenario: failure.scenario, results: results, voidOperations: voidOperations)
        .render(),
    ]
    if failure.kind == .nonLinearizable {
      lines += ["", "Why no order works:"]
      lines += failure.evidence.explanation?.lines(history: failure.history) ?? []
    }
    lines += [
      "",
      "Interleaving (\(trace.steps.count) steps, \(trace.switches) switches; a change of column is a switch):",
      trace.render(),
      "",
      "Schedule: \(trace.scheduleString)",
      "The minimized scenario failed in \(failure.failedInvocations) of \(failure.invocations) schedules.",
      "Seed: \(Configuration.formatSeed(seed)); \(configuration.schedule?.summary ?? "schedule mode"); "
        + "\(timing(of: failure, counting: "schedule")).",
    ]
    lines += interruptionLines
    lines += replayLines(failure)
    return lines.joined(separator: "\n")
  }
}
