import RaceCheckEngine

/// `racecheck replay <repro-file>`: runs a recorded scenario again and says honestly how often it failed.
enum ReplayCommand {
  static let spec = CommandSpec(
    name: "replay",
    abstract:
      "Run a repro file's scenario again until its failure shows, and say how often it did.",
    arguments: [
      ArgumentSpec(
        name: "repro-file",
        help:
          "A repro file written by 'run', 'demo' or a test's check (in .racecheck/repro by default)."
      )
    ],
    options: [
      .value(
        "--time", "SECONDS",
        "Stress repros: keep running the scenario until the failure shows or this long has passed (default: \(PlainNumber.text(defaultTime)))."
      ),
      HTMLOption.spec(
        shows: "what the replay found, as lanes of bars with their marks, the trace or stacks"),
      .flag("--json", "Print one JSON document instead of the text."),
      .quiet,
    ],
    discussion: [
      "A repro of a failure found in schedule mode records its schedule, which runs once,",
      "exactly; the replay says where the code left it if it does. A stress repro runs its",
      "scenario in rounds of the run's invocations until the failure shows again or --time",
      "runs out, and prints how many invocations that took and the failure rate measured.",
      "Either runs in an isolated child, as 'run' does: a scenario that now crashes or hangs",
      "is reported with its stack and the calls in flight, whatever failure the file recorded.",
      "Exits 1 when the failure showed again, 3 when it did not (inconclusive, never 0),",
      "65 when the file cannot be used, 78 when the spec is broken, and 130 or 143 after",
      "SIGINT or SIGTERM. A file whose target this program does not know exits 65 too, saying",
      "what recorded it: for a test's check, the test and the command that runs it again.",
      "An --html page that cannot be written is reported, and the status stays the replay's.",
    ],
    execute: { parsed, context throws(UsageError) in try run(parsed, context) })

  /// How long a stress replay keeps trying, unless `--time` says otherwise.
  static let defaultTime: Duration = .seconds(30)

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let path = parsed.positionals[0]
    let timeLimit = try parsed.duration("--time") ?? defaultTime
    let report: ReplayReport
    let replayed: Target
    let interruption = Interruption.watch()
    defer { interruption.stop() }
    let statusLine = context.statusLine(for: parsed)
    do throws(ReproError) {
      let repro = try Repro.read(from: path)
      guard let target = context.driver.targets.first(where: { $0.name == repro.target }) else {
        throw unknownTarget(of: repro, at: path, programName: context.programName)
      }
      report = try target.replay(
        repro, timeLimit: timeLimit, worker: context.worker, interruption: interruption,
        progress: statusLine?.progress())
      statusLine?.clear()
      replayed = target
    } catch {
      context.printError("\(context.programName): \(error.naming(path))")
      return .dataError
    }
    var status: ExitStatus =
      switch report.outcome {
      case .reproduced: .failureFound
      case .notReproduced: .inconclusive
      case .inconclusive: interruption.signal.map(ExitStatus.interrupted) ?? .inconclusive
      case .specError: .specError
      }
    status = HTMLOption.write(parsed, status: status, context) {
      let window =
        report.evidence?.kind == .nonLinearizable
        ? report.history.flatMap { replayed.checkable.failingWindow(of: $0) } : nil
      return HTMLReport.page(of: report, file: path, window: window)
    }
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

  /// Why the repro's target is unknown here, with how its origin runs it again when another one recorded it.
  static func unknownTarget(of repro: Repro, at path: String, programName: String) -> ReproError {
    switch repro.configuration.origin {
    case .test(let id, let command):
      return .recordedByTest(
        path: path, recorded: repro.target, test: id,
        replay: TestReplay.command(
          seed: repro.seed, scenario: repro.scenarioIndex, testCommand: command))
    case .program(let name) where name != programName:
      return .recordedByProgram(path: path, recorded: repro.target, program: name)
    case .program, nil:
      return .unknownTarget(path: path, recorded: repro.target)
    }
  }

  /// The count line, then the diagnosis and scenario of a failing invocation, or what was tried when none failed.
  static func describe(_ report: ReplayReport, file: String) -> [String] {
    sanitizerNote(report, file: file) + describeReplay(report, file: file)
  }

  /// A line saying that a file a `--sanitize=thread` build wrote is replayed without the sanitizer, which cannot see the races it reports.
  static func sanitizerNote(_ report: ReplayReport, file: String) -> [String] {
    guard report.repro.threadSanitizer == true, !SanitizerRaceLog.isActive else { return [] }
    return [
      "note: \(file) was written by a --sanitize=thread build; replay it with that build "
        + "(swift build --sanitize=thread), or a race only the sanitizer saw will not show"
    ]
  }

  private static func describeReplay(_ report: ReplayReport, file: String) -> [String] {
    // A death comes first, whatever the mode: its stacks are what the user needs.
    if let crash = report.crash {
      return [countLine(report, file: file)] + crashLines(report, crash)
    }
    if let trace = report.trace, report.repro.schedule != nil {
      return scheduleLines(report, trace, file: file)
    }
    var lines = [countLine(report, file: file)]
    let scenario = report.repro.scenario
    guard let history = report.history else {
      lines += [
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
        scenario: scenario, results: history.operations.map(\.result),
        voidOperations: report.voidOperations
      )
      .render(),
    ]
    return lines
  }

  /// Whether the failure showed again, after how many invocations, and the rate measured.
  private static func countLine(_ report: ReplayReport, file: String) -> String {
    let plural = report.invocations == 1 ? "" : "s"
    let rate = report.failureRate.map { " (a failure rate of \(CheckReport.percent($0)))" } ?? ""
    let seconds = CheckReport.formatDuration(report.elapsed)
    switch report.outcome {
    case .reproduced:
      // A race may show as a death on another run; the recorded kind says the two differ.
      let otherwise =
        report.crash != nil && !report.repro.endsTheProcess
        ? "; this time the scenario ended its isolated child, where the run recorded a "
          + "\((report.repro.failure ?? .nonLinearizable).rawValue) failure" : ""
      return "Replayed \(file): the failure showed again, in \(report.failures) of "
        + "\(report.invocations) invocation\(plural)\(rate), in \(seconds)\(otherwise)."
    case .notReproduced:
      let recorded = report.repro.diagnosis.map { " (recorded as \($0.rawValue))" } ?? ""
      return "Replayed \(file): inconclusive: the failure\(recorded) did not show in "
        + "\(report.invocations) invocation\(plural) within \(PlainNumber.text(report.timeLimit)) s; "
        + "stress interleavings vary, so a longer --time may show it."
    case .inconclusive(let reason):
      return
        "Replayed \(file): inconclusive: \(reason), after \(report.invocations) invocation\(plural)."
    case .specError(let error):
      return "Replayed \(file): the spec is broken: \(error.message)"
    }
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
        scenario: report.repro.scenario, results: report.history?.operations.map(\.result),
        voidOperations: report.voidOperations
      ).render(),
    ]
    return lines + interleavingLines(trace)
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
    return lines + (report.trace.map(interleavingLines) ?? [])
  }

  /// The interleaving a schedule-mode replay ran, under its heading.
  private static func interleavingLines(_ trace: InterleavingTrace) -> [String] {
    ["", "Interleaving (\(trace.steps.count) steps, \(trace.switches) switches):", trace.render()]
  }
}
