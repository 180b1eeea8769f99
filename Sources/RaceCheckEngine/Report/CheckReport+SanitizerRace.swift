extension CheckReport {
  /// The report of a race Thread Sanitizer saw: the minimized scenario, then both accesses with their stacks.
  func sanitizerRaceDescription(
    _ failure: FailureReport, _ race: SanitizerRace, _ aftermath: SanitizerRace.Aftermath
  ) -> String {
    var lines = [
      "racecheck: \(target) has a data race (seen by Thread Sanitizer)",
      "",
      "Diagnosis: \(failure.diagnosis.pattern.rawValue)",
      "  \(failure.diagnosis.evidence)",
      "",
      "Minimized scenario (\(failure.original.size) operations shrunk to \(failure.scenario.size) in "
        + "\(failure.shrinkSteps) step\(failure.shrinkSteps == 1 ? "" : "s")\(failure.shrinkingNote)):",
      ScenarioTable(scenario: failure.scenario, results: nil, voidOperations: voidOperations)
        .render(),
      "",
      "The two accesses to 0x\(String(race.address, radix: 16)), which no happens-before order separates:",
    ]
    for (heading, access) in [("", race.later), ("Earlier ", race.earlier)] {
      let kind = access.isWrite ? "write" : "read"
      lines += [
        "",
        "\(heading.isEmpty ? kind.prefix(1).uppercased() + kind.dropFirst() : heading + kind) by \(access.maker), "
          + "\(access.guarding):",
        access.stack,
      ]
    }
    lines.append("")
    switch aftermath {
    case .finished:
      lines.append("The invocation then ran to its end.")
    case .died(let crash):
      lines.append("The child then \(crash.outcome); its stack:")
      lines.append(crash.stack)
    }
    lines += [
      failure.failedInvocations > 0
        ? "The minimized scenario raced in \(failure.failedInvocations) of \(failure.invocations) further invocations."
        : "The minimized scenario raced in none of \(failure.invocations) further invocations: a replay runs until it does.",
      "Seed: \(Configuration.formatSeed(seed)); \(timing(of: failure, counting: "invocation")).",
    ]
    lines += interruptionLines
    lines += replayLines(failure)
    return lines.joined(separator: "\n")
  }
}
