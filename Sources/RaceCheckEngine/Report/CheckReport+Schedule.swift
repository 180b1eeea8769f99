extension CheckReport {
  /// The report of a failure found in schedule mode: the minimized scenario, then the interleaving that broke it.
  func scheduleDescription(_ failure: FailureReport, _ trace: InterleavingTrace) -> String {
    let results = failure.kind == .nonLinearizable ? failure.history.operations.map(\.result) : nil
    var lines = [
      "racecheck: \(target) \(failure.headline)",
      "",
      "Diagnosis: \(failure.diagnosis.pattern.rawValue)",
      "  \(failure.diagnosis.evidence)",
    ]
    for finding in failure.findings ?? [] {
      lines.append("Also seen: \(finding.pattern.rawValue): \(finding.evidence)")
    }
    if let expectations = failure.evidence.failedExpectations {
      lines += ["", "Failed expectations:"] + expectations.map { "  \($0)" }
    }
    // An explored body is one call, the body: its scenario says nothing the trace does not.
    if !configuration.exploresABody {
      lines += [
        "",
        "Minimized scenario (\(failure.original.size) operations shrunk to \(failure.scenario.size) in "
          + "\(failure.shrinkSteps) step\(failure.shrinkSteps == 1 ? "" : "s")\(failure.shrinkingNote))"
          + (results == nil ? ":" : ", with the results of the failing schedule:"),
        ScenarioTable(scenario: failure.scenario, results: results, voidOperations: voidOperations)
          .render(),
      ]
    }
    if failure.kind == .nonLinearizable {
      lines += ["", "Why no order works:"]
      lines += failure.evidence.explanation?.lines(history: failure.history) ?? []
    }
    lines += [
      "",
      "Interleaving (\(trace.summary(preemptionsBeforeShrinking: failure.preemptionsBeforeShrinking)); "
        + "a change of column is a switch):",
      trace.render(),
      "",
      "Schedule: \(trace.scheduleString)",
      (configuration.exploresABody ? "The body" : "The minimized scenario")
        + " failed in \(failure.failedInvocations) of \(failure.invocations) schedules.",
      "Seed: \(Configuration.formatSeed(seed)); \(configuration.scheduleSettings?.summary ?? "schedule mode"); "
        + "\(timing(of: failure, counting: "schedule")).",
    ]
    lines += interruptionLines
    lines += replayLines(failure)
    return lines.joined(separator: "\n")
  }
}
