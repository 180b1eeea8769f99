/// `racecheck replay <repro-file>`: runs a recorded scenario again and says honestly how often it failed.
enum ReplayCommand {
  static let spec = CommandSpec(
    name: "replay",
    abstract: "Run a repro file's scenario again and count how often it fails.",
    arguments: [
      ArgumentSpec(
        name: "repro-file", help: "A repro file written by 'run' (in .racecheck/repro by default).")
    ],
    options: [
      .value("--invocations", "N", "Runs of the scenario (default: the repro's own count)."),
      .flag("--json", "Print one JSON document instead of the text."),
    ],
    discussion: [
      "Stress interleavings are not deterministic: a replay counts failures rather than",
      "promising one. A repro of a failure found in schedule mode records its schedule,",
      "which runs once, exactly, and the replay says where the code left it if it does.",
      "Exits 1 when any invocation fails, 0 when none does, 65 when the file cannot be",
      "used, and 78 when the spec is broken.",
    ],
    execute: { parsed, context throws(UsageError) in try run(parsed, context) })

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let path = parsed.positionals[0]
    let invocations = try parsed.integer("--invocations", atLeast: 1)
    let report: ReplayReport
    let target: Target
    do throws(ReproError) {
      let repro = try Repro.read(from: path)
      guard let found = context.driver.targets.first(where: { $0.name == repro.target }) else {
        throw .unknownTarget(path: path, recorded: repro.target)
      }
      target = found
      let count = invocations ?? max(1, repro.configuration.invocations)
      // A crash or a hang would end this process: it is replayed in an isolated child.
      if repro.endsTheProcess, let executable = context.driver.workerExecutable {
        var isolated = IsolatedCheck(target: target, configuration: repro.configuration)
        isolated.executable = executable
        report = isolated.replay(repro, invocations: count)
      } else {
        report = try target.checkable.replay(repro, invocations: count)
      }
    } catch {
      context.printError("\(context.programName): \(error.naming(path))")
      return .dataError
    }
    let status: ExitStatus =
      report.specError != nil ? .specError : report.failures > 0 ? .failureFound : .success
    if parsed.flag("--json") {
      return context.printJSON(ReplayJSON(file: path, report), status: status)
    }
    if let specError = report.specError {
      context.printError(
        "\(context.programName): \(report.repro.target): the spec is broken: \(specError.message)")
    } else {
      describe(report, file: path).forEach(context.print)
    }
    return status
  }

  /// The count line, then the diagnosis and scenario of a failing invocation, or a hint when none failed.
  static func describe(_ report: ReplayReport, file: String)
    -> [String]
  {
    if let trace = report.trace { return scheduleLines(report, trace, file: file) }
    let plural = report.invocations == 1 ? "" : "s"
    var lines = [
      "Replayed \(file): the scenario failed in \(report.failures) of \(report.invocations) invocation\(plural) "
        + "(stress interleavings are not deterministic)."
    ]
    let scenario = report.repro.scenario
    if let crash = report.crash {
      lines += crashLines(report, crash)
      return lines
    }
    guard report.failures > 0, let history = report.history else {
      let recorded = report.repro.diagnosis.map { " (recorded as \($0.rawValue))" } ?? ""
      lines += [
        "The failure\(recorded) did not show this time; more invocations may show it (--invocations N).",
        "",
        "Scenario:",
        ScenarioTable(scenario: scenario, results: nil, voidOperations: []).render(),
      ]
      return lines
    }
    if let diagnosis = report.diagnosis {
      lines += ["", "Diagnosis: \(diagnosis.pattern.rawValue)", "  \(diagnosis.evidence)"]
    }
    lines += [
      "",
      "Scenario, with the results of a failing invocation:",
      ScenarioTable(
        scenario: scenario, results: history.entries.map(\.result),
        voidOperations: report.voidOperations
      )
      .render(),
    ]
    return lines
  }

  /// Whether a schedule-mode replay followed its recorded schedule and failed again, then the diagnosis, the scenario and the interleaving.
  private static func scheduleLines(
    _ report: ReplayReport, _ trace: InterleavingTrace, file: String
  ) -> [String] {
    let schedule = report.repro.schedule ?? []
    var lines: [String]
    if let divergence = report.divergence {
      lines = [
        "Replayed \(file): the run left its recorded schedule of \(schedule.count) scheduling points: "
          + "\(divergence). The code under test did something the schedule does not fix, such as "
          + "reading the clock, a random number or state left by an earlier run."
      ]
    } else {
      lines = [
        "Replayed \(file): its recorded schedule of \(schedule.count) scheduling points ran exactly, and the "
          + "failure \(report.failures > 0 ? "showed again" : "did not show")."
      ]
    }
    if let diagnosis = report.diagnosis {
      lines += ["", "Diagnosis: \(diagnosis.pattern.rawValue)", "  \(diagnosis.evidence)"]
    }
    lines += [
      "",
      "Scenario:",
      ScenarioTable(
        scenario: report.repro.scenario, results: report.history?.entries.map(\.result),
        voidOperations: report.voidOperations
      ).render(),
      "",
      "Interleaving (\(trace.steps.count) steps, \(trace.switches) switches):",
      trace.render(),
    ]
    return lines
  }

  /// The diagnosis, the scenario, the calls in flight and the stacks of a replay that crashed, hung or exited.
  private static func crashLines(_ report: ReplayReport, _ crash: CrashEvidence) -> [String] {
    var lines = ["", "It \(crash.outcome), in invocation \(report.invocations)."]
    if let diagnosis = report.diagnosis {
      lines += ["", "Diagnosis: \(diagnosis.pattern.rawValue)", "  \(diagnosis.evidence)"]
    }
    lines += [
      "", "Scenario:",
      ScenarioTable(scenario: report.repro.scenario, results: nil, voidOperations: []).render(),
      "",
      "In flight: "
        + (crash.inFlight.isEmpty
          ? "no call"
          : crash.inFlight.map { "\($0.call) on thread \($0.thread)" }.joined(separator: ", ")),
    ]
    if crash.kind == .crash { lines += ["", crash.stack] }
    for stack in crash.threadStacks { lines += ["", stack] }
    return lines
  }
}
