extension CheckReport: CustomStringConvertible {
  /// The full report, as a failing test or the command line prints it.
  public var description: String {
    if let specError {
      var lines = ["racecheck: \(target): the spec is broken: \(specError.message)"]
      if let scenario = specError.scenario, scenario.size > 0 {
        lines += [
          "", "Scenario running when it happened:",
          ScenarioTable(scenario: scenario, results: nil, voidOperations: []).render(),
        ]
      }
      lines += ["", "Seed: \(Configuration.formatSeed(seed))"]
      return lines.joined(separator: "\n")
    }
    switch outcome {
    case .passed:
      let provenance = "(seed \(Configuration.formatSeed(seed)), \(Self.formatDuration(elapsed)))"
      if configuration.exploresABody, search.exhaustedScenarios > 0 {
        guard search.untracedCode.isEmpty else {
          return "racecheck: \(target) passed: every order of this body's scheduling points "
            + "explored, \(search.invocations) schedule\(search.invocations == 1 ? "" : "s") \(provenance)\n\(untracedCodeNote)"
        }
        return
          "racecheck: \(target) passed (exhaustive): every interleaving of this body explored, "
          + "\(search.invocations) schedule\(search.invocations == 1 ? "" : "s") \(provenance)\n\(Self.scheduleCoverage)"
      }
      let pass = "racecheck: \(target) passed: \(searchDescription), no failure \(provenance)"
      return search.untracedCode.isEmpty ? pass : "\(pass)\n\(untracedCodeNote)"
    case .inconclusive(let reason):
      var lines = [
        "racecheck: \(target) is inconclusive: \(reason).",
        "No failure was found in what ran (\(searchDescription)), but \(reason.caveat), "
          + "so this is not a pass.",
        "Seed: \(Configuration.formatSeed(seed)) (\(Self.formatDuration(elapsed))).",
      ]
      if let replayCommand { lines.append("Run it again: \(replayCommand)") }
      return lines.joined(separator: "\n")
    case .killedFromOutside(let signal, let attempts):
      return "racecheck: \(target): no verdict: the isolated child was killed by "
        + "\(SignalName.name(of: signal)) \(attempts) times in a row, a signal the code under test did not "
        + "raise (killed from outside: another process, or the OOM killer); the code under test is not blamed. "
        + "Seed: \(Configuration.formatSeed(seed))."
    case .internalFault(let fault):
      return [
        "racecheck: \(target): no verdict: \(fault.summary).",
        "This is a racecheck bug, not a fault of \(target): please report it with this stack and the seed.",
        "Seed: \(Configuration.formatSeed(seed)).",
        "Stack of the crashing thread:",
        fault.stack,
      ].joined(separator: "\n")
    case .failed(let failure):
      return failureDescription(failure)
    case .specError:
      return ""
    }
  }

  /// What the schedules of an exhaustive search covered, as its pass states it.
  package static let scheduleCoverage =
    "Covered: every order of its locks, conditions, semaphores, queue, thread and task "
    + "operations, of the state Swift checks for exclusive access, and of the loads and stores "
    + "of C code built with load and store tracing; memory reached only through unsafe pointers is not."

  /// Why a pass is no proof when C code ran untraced, naming its functions.
  private var untracedCodeNote: String {
    "Not a proof: C code ran whose plain loads and stores are not scheduling points, so a "
      + "store may land between two of them in ways no schedule shows: "
      + "\(search.untracedCode.joined(separator: ", ")). Build its target with "
      + "-fsanitize-coverage=func,trace-pc,trace-loads,trace-stores to make them points."
  }

  /// What the search explored, as a pass or an inconclusive verdict states it.
  package var searchDescription: String {
    let scenarios =
      "\(search.scenarios) of \(search.plannedScenarios) scenarios"
      + (configuration.shard.map { " (shard \($0) of the run's)" } ?? "")
    let traps =
      search.contractTraps == 0
      ? ""
      : "; \(search.contractTraps) ended in a trap the spec's requirements allow, and were excused"
    if configuration.scheduleSettings?.strategy == .dpor, search.exhaustedScenarios > 0 {
      let interleavings = search.untracedCode.isEmpty ? "interleaving" : "order of the points"
      let every =
        search.exhaustedScenarios == search.scenarios
        ? "every \(interleavings) of each explored"
        : "every \(interleavings) of \(search.exhaustedScenarios) explored"
      return "\(scenarios) (\(every)), \(search.invocations) schedules, "
        + "\(search.distinctOutcomes) distinct outcomes\(traps)"
    }
    if configuration.exploresABody {
      return
        "\(search.invocations) schedule\(search.invocations == 1 ? "" : "s") of the body "
        + "(\(configuration.scheduleSettings?.summary ?? "random walk"))"
    }
    if configuration.scheduleSettings != nil {
      return "\(scenarios), \(search.invocations) schedules, "
        + "\(search.distinctOutcomes) distinct outcomes\(traps)\(newResultsDescription(of: "schedules"))"
    }
    // The budget counts overlapping invocations only, so more may run than --invocations says.
    let why =
      search.invocations > search.overlappingInvocations
      ? " (the budget of \(configuration.invocations) per scenario counts only these)" : ""
    return "\(scenarios), \(search.invocations) invocations of which "
      + "\(search.overlappingInvocations) ran their threads at the same time\(why), "
      + "\(search.distinctOutcomes) distinct outcomes\(traps)\(newResultsDescription(of: "invocations"))"
  }

  /// How settled the explored scenarios were: the chance that one more run of a scenario shows results none showed.
  private func newResultsDescription(of budget: String) -> String {
    let chance = search.chanceOfNewResults
    guard chance.scenarios > 0 else { return "" }
    return "; the chance that one more of a scenario's \(budget) returns results none did "
      + "(Good–Turing) is \(Self.percent(chance.mean)) on average, \(Self.percent(chance.largest)) at most"
  }

  /// A share as a percentage with two significant digits at most, as `0.42%` or `12%`.
  package static func percent(_ share: Double) -> String {
    let value = share * 100
    if value >= 10 { return "\(Int(value.rounded()))%" }
    if value >= 1 { return "\((value * 10).rounded() / 10)%" }
    return "\((value * 100).rounded() / 100)%"
  }

  /// The line that says a signal stopped the check after it found its failure.
  var interruptionLines: [String] {
    guard let interruptedBy else { return [] }
    return [
      "",
      "Interrupted by \(SignalName.name(of: interruptedBy)) while explaining the failure: the scenario "
        + "is the smallest found so far.",
    ]
  }

  private func failureDescription(_ failure: FailureReport) -> String {
    if case .sanitizerRace(let race, let aftermath) = failure.evidence {
      return sanitizerRaceDescription(failure, race, aftermath)
    }
    if let crash = failure.crash { return crashDescription(failure, crash) }
    if let trace = failure.trace { return scheduleDescription(failure, trace) }
    let results = failure.history.operations.map(\.result)
    var lines = [
      "racecheck: \(target) is not linearizable",
      "",
      "Diagnosis: \(failure.diagnosis.pattern.rawValue)",
      "  \(failure.diagnosis.evidence)",
      "",
      "Minimized scenario (\(failure.original.size) operations shrunk to \(failure.scenario.size) in "
        + "\(failure.shrinkSteps) step\(failure.shrinkSteps == 1 ? "" : "s")\(failure.shrinkingNote)), "
        + "with the results of a failing invocation:",
      ScenarioTable(scenario: failure.scenario, results: results, voidOperations: voidOperations)
        .render(),
      "",
      "Why no order works:",
    ]
    lines += failure.evidence.explanation?.lines(history: failure.history) ?? []
    lines += [
      "",
      failure.failedInvocations > 0
        ? "The minimized scenario failed in \(failure.failedInvocations) of \(failure.invocations) further "
          + "invocations (stress interleavings vary from run to run)."
        : "The minimized scenario failed in none of \(failure.invocations) further invocations: the "
          + "interleaving above is rare; a replay runs until it shows again.",
      "Seed: \(Configuration.formatSeed(seed)); \(timing(of: failure, counting: "invocation")).",
    ]
    lines += interruptionLines
    lines += replayLines(failure)
    return lines.joined(separator: "\n")
  }

  func replayLines(_ failure: FailureReport) -> [String] {
    var lines: [String] = []
    // A race only Thread Sanitizer saw shows again only in a build with it.
    let sanitized = SanitizerRaceLog.isActive ? "  (in this --sanitize=thread build)" : ""
    if let replayCommand { lines.append("Replay: \(replayCommand)\(sanitized)") }
    switch failure.repro {
    case .written(let path):
      let hint = configuration.origin?.replayHint(forReproAt: path).map { "  (\($0))" } ?? ""
      lines.append("Repro file: \(path)\(hint)")
    case .notWritten(let error): lines.append("Repro file: not written: \(error)")
    }
    return lines
  }

  /// The report of a crash, a hang or an early exit of the isolated child.
  private func crashDescription(_ failure: FailureReport, _ crash: CrashEvidence) -> String {
    let how = crash.outcome
    let scheduled = configuration.scheduleSettings != nil
    let thread =
      crash.runnerThread.map { "thread \($0), a racecheck thread" }
      ?? (scheduled
        ? "a thread the scheduler controls (\(crash.threadName ?? "unnamed")): a block's, a task's or one the code created"
        : "a thread racecheck did not start (\(crash.threadName ?? "unnamed")): a dispatch worker or another library's thread")
    let run = scheduled ? "schedule" : "invocation"
    var lines = [
      "racecheck: \(target) \(how)",
      "",
      "Diagnosis: \(failure.diagnosis.pattern.rawValue)",
      "  \(failure.diagnosis.evidence)",
      "",
      failure.shrinkSteps > 0
        ? "Minimized scenario (\(failure.original.size) operations shrunk to \(failure.scenario.size) in "
          + "\(failure.shrinkSteps) steps, each run in a fresh child\(failure.shrinkingNote)), ended in "
          + "\(run) \((crash.invocation ?? 0) + 1):"
        : "Scenario \(failure.scenarioIndex + 1), \(run) \((crash.invocation ?? 0) + 1):",
      ScenarioTable(scenario: failure.scenario, results: nil, voidOperations: []).render(),
      "",
      "In flight: "
        + (crash.inFlight.isEmpty
          ? "no call (the \(crash.kind == .hang ? "hang" : "death") came after the calls had returned)"
          : crash.inFlight.map { "\($0.call) on thread \($0.thread)" }.joined(separator: ", ")),
    ]
    if crash.kind == .crash {
      lines += ["Crashing thread: \(thread)", crash.stack]
    }
    for stack in crash.threadStacks {
      lines += ["", stack]
    }
    if let trace = failure.trace {
      lines += [
        "",
        "Interleaving up to the \(crash.kind == .hang ? "hang" : "crash") (\(trace.steps.count) steps, "
          + "\(trace.switches) switch\(trace.switches == 1 ? "" : "es"); a change of column is a switch):",
        trace.render(),
      ]
    }
    if let standardError = crash.standardError {
      lines += ["", "The child's standard error ended with:"]
      lines += standardError.split(separator: "\n", omittingEmptySubsequences: false).suffix(10).map
      { "  " + $0 }
    }
    lines += [
      "",
      "Seed: \(Configuration.formatSeed(seed)); \(timing(of: failure, counting: run)).",
    ]
    lines += interruptionLines
    lines += replayLines(failure)
    return lines.joined(separator: "\n")
  }

  /// Where the failure was found and the time it took, apart from the time shrinking took.
  ///
  /// `found in scenario 4 after 3001 invocations in 212 ms; shrinking took 86 ms; 0.41 s in
  /// all`: finding a failure and shrinking it cost differently, so a slow report says which
  /// one to budget for (`--shrink-time` bounds the shrinking, `--time` the whole). The rest of
  /// the whole is counting the minimized scenario's failures and the diagnosis's experiments.
  ///
  /// - Parameters:
  ///   - failure: The failure found.
  ///   - run: What the search counts: `invocation`, or `schedule` in schedule mode.
  /// - Returns: The clause after the seed on a failure report's `Seed:` line.
  func timing(of failure: FailureReport, counting run: String) -> String {
    let shrinking = failure.timeToShrink.map { "shrinking took \(Self.formatDuration($0))" }
    // A body to explore has one scenario; the schedule that failed is what replays it.
    let found =
      configuration.exploresABody
      ? "found at schedule \((failure.scheduleIndex ?? invocations - 1) + 1)"
      : "found in scenario \(failure.scenarioIndex + 1)"
    return "\(found) after \(invocations) \(run)"
      + "\(invocations == 1 ? "" : "s") in \(Self.formatDuration(failure.timeToFind)); "
      + "\(shrinking ?? "not shrunk"); \(Self.formatDuration(elapsed)) in all"
  }

  /// `duration` as reports print it: `212 ms` under a second, else `1.25 s`, truncated to hundredths.
  package static func formatDuration(_ duration: Duration) -> String {
    let seconds = duration.seconds
    return seconds < 1
      ? "\(Int(duration.milliseconds.rounded())) ms" : "\(Double(Int(seconds * 100)) / 100) s"
  }
}

extension Explanation {
  /// The explanation as report lines.
  func lines(history: History) -> [String] {
    let operations = history.operations
    func name(_ index: Int) -> String {
      "\(operations[index].callText) on thread \(operations[index].process)"
    }
    var lines: [String] = []
    if longestPrefix.isEmpty {
      lines.append("  No operation can be placed first.")
    } else {
      lines.append(
        "  The longest order the checker found places \(longestPrefix.count) of \(operations.count) operations: "
          + longestPrefix.map { operations[$0].callText }.joined(separator: ", ") + ".")
    }
    lines.append("  The model's state then: \(state).")
    for candidate in candidates {
      if candidate.returned == candidate.expected {
        lines.append(
          "  - \(name(candidate.operation)) returned \(candidate.returned), as the model allows, but no order after it works."
        )
      } else {
        lines.append(
          "  - \(name(candidate.operation)) returned \(candidate.returned); the model returns \(candidate.expected)."
        )
      }
    }
    return lines
  }
}

extension FailureReport {
  /// What the minimized scenario's line adds when shrinking stopped before the scenario was minimal.
  package var shrinkingNote: String {
    let fresh =
      ScenarioGenerator.startsFresh(scenario: scenarioIndex) && original.initial.isEmpty
      ? "; from a scenario that starts on a fresh subject, its threads at once with no init part"
      : ""
    return fresh
      + (shrinkingCutShort
        ? "; shrinking stopped at its time limit, so a smaller one may exist" : "")
  }
}
