import Foundation
import RaceCheckEngine

/// `racecheck run <target>`: one check, printed as the full report or one JSON document.
enum RunCommand {
  private static let defaults = Configuration()

  static let spec = CommandSpec(
    name: "run",
    abstract: "Check a target and report the first failure found.",
    arguments: [ArgumentSpec(name: "target", help: "The target to check, as 'list' names it.")],
    options: [
      .value("--seed", "S", "Seed, decimal or 0x… hex (default: from the target's name)."),
      .value(
        "--threads", "N",
        "Threads in the parallel part, at most \(Configuration.Shape.maximumThreads) (default: \(defaults.shape.threads))."
      ),
      .value(
        "--ops", "N", "Operations per thread (default: \(defaults.shape.operationsPerThread))."),
      .value(
        "--init", "N",
        "Operations before the threads start (default: \(defaults.shape.initialOperations))."),
      .value(
        "--post", "N",
        "Operations after the threads finish (default: \(defaults.shape.postOperations))."),
      .value("--scenarios", "N", "Scenarios to run, at most (default: \(defaults.scenarios))."),
      .value(
        "--invocations", "N",
        "Runs of each scenario in which its threads overlapped (default: \(defaults.invocations))."),
      .value(
        "--first-scenario", "N",
        "Start at scenario N of the seed's sequence, as a failure's replay line does (default: 0)."),
      .value(
        "--time", "SECONDS",
        "Bound the whole check, shrinking included; a search it cuts short is inconclusive (default: no limit)."
      ),
      .flag("--no-minimize", "Report the failing scenario without shrinking it."),
      .value(
        "--shrink-time", "SECONDS",
        "Stop shrinking a failure after this long (default: \(PlainNumber.text(defaults.shrinkTimeLimit!)))."
      ),
      .value("--repro-dir", "DIR", "Folder for repro files (default: .racecheck/repro)."),
      .flag("--no-isolation", "Check in this process: faster, but a crash ends this program."),
      .value(
        "--hang-timeout", "SECONDS",
        "Report a hang when an invocation makes no progress this long, counting only the time the machine gives the child a CPU (default: \(PlainNumber.text(defaults.hangTimeout)))."
      ),
      .value(
        "--history", "FILE",
        "Write the failing history found to FILE as a history file (the 'check' command reads it)."),
      HTMLOption.spec(
        shows:
          "the report, the failing history as lanes of bars with its marks, the trace or stacks"
      ),
      .flag("--json", "Print one JSON document instead of the report."),
      .value(
        "--shard", "K/N",
        "Run only part K of N of the scenarios, for a CI matrix; 'merge' combines the parts' --json."
      ),
      .value("--junit", "FILE", "Write the verdict to FILE as JUnit XML, for CI."),
      .quiet,
    ] + ScheduleOptions.options,
    discussion: [
      "Exits 0 when the whole budget ran without a failure, 1 when a failure is found, 3 when",
      "the search was cut short (inconclusive), 70 when the worker child kept being killed",
      "from outside, 78 when the spec is broken, 73 when it passed but the --junit or --html",
      "file could not be written, and 130 or 143 after SIGINT or SIGTERM, once what was found",
      "so far is printed and its repro written.",
      "A failure report ends with the command that runs the same check again.",
      "With --shard K/N the check runs scenarios K-1, K-1+N, K-1+2N, … of the seed's sequence,",
      "so that N machines share one run; 'merge' combines their --json documents.",
      "Schedule mode replays exactly: the same seed and strategy give the same failing schedule and trace.",
    ],
    execute: { parsed, context throws(UsageError) in try run(parsed, context) })

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let target = try context.target(named: parsed.positionals[0])
    if parsed.command.name == ExploreCommand.spec.name, !target.isExploration {
      throw .notAnExploration(target.name)
    }
    var configuration = try configuration(
      from: parsed, exploring: target.isExploration ? target.name : nil)
    configuration.origin = .program(context.programName)
    let interruption = Interruption.watch()
    let statusLine = context.statusLine(for: parsed)
    var report = context.check(
      target, configuration, interruption: interruption, progress: statusLine?.progress())
    statusLine?.clear()
    interruption.stop()
    report.replayCommand = replayCommand(of: report, programName: context.programName)
    var status = ExitStatus.of(report)
    if let path = parsed.valueIfOffered("--history") {
      writeHistory(of: report, target: target, to: path, context)
    }
    if let path = parsed.value("--junit") {
      let junit = JUnitReport(
        name: "racecheck run",
        cases: [
          JUnitReport.TestCase(report, name: caseName(of: report), className: "racecheck.run")
        ],
        timestamp: Date())
      status = status.afterWritingReportFile(
        succeeded: context.writeReportFile(junit.xml, to: path, what: "JUnit report"))
    }
    status = HTMLOption.write(parsed, status: status, context) {
      HTMLReport.page(of: report, window: failingWindow(of: report, target: target))
    }
    if parsed.flag("--json") { return context.printJSON(RunJSON(report), status: status) }
    // A broken spec is an error in the user's setup, not a finding, so it goes where errors go.
    if report.specError != nil || status == .internalError {
      context.printError(report.description)
    } else {
      context.print(report.description)
    }
    return status
  }

  /// The smallest failing window of a failure no order explains, for the HTML report to mark.
  static func failingWindow(of report: CheckReport, target: Target) -> [Int]? {
    guard let failure = report.failure, failure.kind == .nonLinearizable else { return nil }
    return target.checkable.failingWindow(of: failure.history)
  }

  /// A check's name in JUnit reports: the target and the seed, which together say what ran.
  static func caseName(of report: CheckReport) -> String {
    "\(report.target) (seed \(Configuration.formatSeed(report.seed)))"
  }

  /// Writes the failure's history as a history file, saying on standard error what was written, or why nothing was.
  static func writeHistory(
    of report: CheckReport, target: Target, to path: String, _ context: CommandContext
  ) {
    guard let failure = report.failure else {
      context.printError(
        "\(context.programName): no failure found, so no history was written to \(path)")
      return
    }
    var history = target.checkable.recordedHistory(failure.history)
    history.meta = .object([
      "target": .string(target.name), "seed": .string(Configuration.formatSeed(report.seed)),
      "scenario": .int(failure.scenarioIndex), "failure": .string(failure.kind.rawValue),
    ])
    do {
      try HistoryFile.encode(history).write(toFile: path, atomically: true, encoding: .utf8)
      context.printError("\(context.programName): history written to \(path)")
    } catch {
      context.printError("\(context.programName): \(path): cannot write the history: \(error)")
    }
  }

  /// The configuration the options describe, each value checked for range; `exploring` names a body to explore, which runs in schedule mode.
  static func configuration(from parsed: ParsedArguments, exploring: String? = nil)
    throws(UsageError) -> Configuration
  {
    var configuration = Configuration()
    configuration.seed = try parsed.seed("--seed")
    configuration.timeLimit = try parsed.duration("--time")
    configuration.minimizes = !parsed.flag("--no-minimize")
    configuration.shrinkTimeLimit =
      try parsed.duration("--shrink-time") ?? defaults.shrinkTimeLimit
    configuration.reproDirectory = parsed.value("--repro-dir")
    configuration.isolated = !parsed.flag("--no-isolation")
    configuration.hangTimeout = try parsed.duration("--hang-timeout") ?? defaults.hangTimeout
    configuration.scheduleSettings = try ScheduleOptions.settings(
      from: parsed, exploring: exploring)
    configuration.shard = try parsed.shard("--shard")
    // A body to explore is one scenario of one call: `explore` has no options for more.
    guard parsed.command.name == spec.name else { return configuration }
    configuration.shape.threads =
      try parsed.integer("--threads", atLeast: 1, atMost: Configuration.Shape.maximumThreads)
      ?? defaults.shape.threads
    configuration.shape.operationsPerThread =
      try parsed.integer("--ops", atLeast: 1) ?? defaults.shape.operationsPerThread
    configuration.shape.initialOperations =
      try parsed.integer("--init", atLeast: 0) ?? defaults.shape.initialOperations
    configuration.shape.postOperations =
      try parsed.integer("--post", atLeast: 0) ?? defaults.shape.postOperations
    configuration.scenarios = try parsed.integer("--scenarios", atLeast: 1) ?? defaults.scenarios
    configuration.invocations =
      try parsed.integer("--invocations", atLeast: 1) ?? defaults.invocations
    configuration.firstScenario = try parsed.integer("--first-scenario", atLeast: 0) ?? 0
    return configuration
  }

  /// The command line that runs the check of `report` again, from the scenario that failed when one did.
  static func replayCommand(of report: CheckReport, programName: String) -> String {
    var replayed = report.configuration
    replayed.firstScenario = report.failure?.scenarioIndex ?? replayed.firstScenario
    // A body's failing schedule runs alone, without the search that found it.
    if let schedule = report.failingSchedule {
      replayed.scheduleSettings?.replayedSchedule = schedule
    }
    return replayCommand(
      programName: programName, target: report.target, seed: report.seed, configuration: replayed)
  }

  /// The command line that runs the same check: the seed the run used, and every setting that is not the default.
  ///
  /// `--json` is left out: it changes how the report is printed, not what is checked.
  static func replayCommand(
    programName: String, target: String, seed: UInt64, configuration: Configuration
  ) -> String {
    // A body to explore is one scenario of one call: no shape, no scenarios, no stress budget.
    let exploring = configuration.exploresABody
    let command = exploring ? ExploreCommand.spec.name : spec.name
    var words = [programName, command, target, "--seed", Configuration.formatSeed(seed)]
    func add(_ option: String, _ value: Int, _ defaultValue: Int) {
      if value != defaultValue, !exploring { words += [option, String(value)] }
    }
    add("--threads", configuration.shape.threads, defaults.shape.threads)
    add("--ops", configuration.shape.operationsPerThread, defaults.shape.operationsPerThread)
    add("--init", configuration.shape.initialOperations, defaults.shape.initialOperations)
    add("--post", configuration.shape.postOperations, defaults.shape.postOperations)
    add("--scenarios", configuration.scenarios, defaults.scenarios)
    add("--invocations", configuration.invocations, defaults.invocations)
    add("--first-scenario", configuration.firstScenario, defaults.firstScenario)
    if let time = configuration.timeLimit {
      words += ["--time", PlainNumber.text(time)]
    }
    if !configuration.minimizes { words.append("--no-minimize") }
    if let limit = configuration.shrinkTimeLimit, limit != defaults.shrinkTimeLimit {
      words += ["--shrink-time", PlainNumber.text(limit)]
    }
    if let directory = configuration.reproDirectory { words += ["--repro-dir", directory] }
    if !configuration.isolated { words.append("--no-isolation") }
    if configuration.hangTimeout != defaults.hangTimeout {
      words += ["--hang-timeout", PlainNumber.text(configuration.hangTimeout)]
    }
    words += ScheduleOptions.words(configuration.scheduleSettings, exploring: exploring)
    if let shard = configuration.shard { words += ["--shard", shard.description] }
    return words.map(ShellWord.quoted).joined(separator: " ")
  }
}
