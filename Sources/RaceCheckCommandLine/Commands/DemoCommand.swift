import Foundation
import RaceCheckEngine

/// `racecheck demo`: checks every target that has an expectation and tallies how many agree with it.
enum DemoCommand {
  /// The seed the demo uses unless told otherwise: one of the seeds the catalogue's tests check.
  static let defaultSeed: UInt64 = 1

  /// The demo's budgets, which the catalogue's tests use too.
  ///
  /// A passing row runs its whole budget, however long a busy machine makes that: a time cap
  /// would make it inconclusive.
  static let defaults = Configuration.demo(seed: defaultSeed)

  /// The demo's budgets in schedule mode.
  static let scheduleDefaults = Configuration.scheduleDemo(seed: defaultSeed)

  static let spec = CommandSpec(
    name: "demo",
    abstract: "Check each target against its expected verdict.",
    arguments: [],
    options: [
      .value("--seed", "S", "One seed for every target (default: \(defaultSeed))."),
      .value("--seeds", "S1,S2,…", "Check every target once per seed, a row each."),
      .value("--targets", "T1,T2,…", "Check only these targets, as 'list' names them."),
      .flag("--explorations", "Check only the bodies to explore (the targets 'explore' runs)."),
      .value(
        "--scenarios", "N",
        "Scenarios per target, at most (default: \(defaults.scenarios); in schedule mode \(scheduleDefaults.scenarios))."
      ),
      .value(
        "--invocations", "N",
        "Runs of each scenario in which its threads overlapped (default: \(defaults.invocations))."),
      .value(
        "--time", "SECONDS",
        "Bound each target's check; a search it cuts short is inconclusive (default: no limit)."),
      .value(
        "--shrink-time", "SECONDS",
        "Stop shrinking a failure after this long (default: \(PlainNumber.text(defaults.shrinkTimeLimit!)))."
      ),
      .value("--repro-dir", "DIR", "Folder for repro files (default: .racecheck/repro)."),
      .flag("--no-isolation", "Check in this process: faster, but a crash ends the demo."),
      .value(
        "--hang-timeout", "SECONDS",
        "Report a hang when an invocation makes no progress this long (default: \(PlainNumber.text(defaults.hangTimeout)))."
      ),
      HTMLOption.spec(shows: "a table of every row, each failing row linked to its failure"),
      .flag("--json", "Print one JSON document instead of the table."),
      .value(
        "--shard", "K/N",
        "Check only part K of N of the rows, for a CI matrix; 'merge' combines the parts' --json."),
      .value("--junit", "FILE", "Write every row to FILE as a JUnit XML test case, for CI."),
      .quiet,
    ] + ScheduleOptions.options,
    discussion: [
      "Each row is one target checked with one seed, judged by the catalogue's contract: a row",
      "is wrong when a target that must pass fails, one that must fail passes, a failure is",
      "named other than the target's bugs, or the spec is broken; a row that claims nothing (a",
      "search cut short, a failure named only 'unclassified' or by its family) is unsettled,",
      "printed and counted. A target agrees when none of its rows is wrong and one reached its",
      "verdict: a bug found and named on at least one seed, a correct target passed. Exits 0",
      "when every target agrees, 1 when a row is wrong or a bug went unfound, 3 when a target",
      "was left unsettled on every seed, and 130 or 143 after SIGINT or SIGTERM, once the rows",
      "checked so far are printed (73 when every target agrees but the --junit or --html file",
      "could not be written). Each wrong row is followed by the 'run' command that checks it",
      "again.",
      "With --shard K/N only rows K-1, K-1+N, K-1+2N, … of the whole demo (target by target,",
      "each seed in turn) are checked, so that N machines share one demo; a part fails only on",
      "a wrong row, and 'merge' judges each target over all its rows. --targets keeps",
      "only the named targets' rows (a name 'list' does not know exits 64, as 'run' does).",
    ],
    execute: { parsed, context throws(UsageError) in try run(parsed, context) })

  /// One check of one target with one seed.
  private struct Outcome {
    /// The row's place in the whole demo, sharded or not.
    var index: Int
    var target: Target
    var expectation: Expectation
    var report: CheckReport
    var judgement: Expectation.SeedJudgement { expectation.judge(report) }
    var agrees: Bool { judgement == .agrees }

    /// The run as the tally counts it.
    var tallied: DemoTally.Run {
      DemoTally.Run(
        target: target.name, seed: Configuration.formatSeed(report.seed),
        expected: expectation.verdict, expectedText: ListCommand.describe(expectation),
        judgement: judgement)
    }
  }

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let seed = try parsed.seed("--seed")
    let seeds = try parsed.seeds("--seeds")
    if seed != nil, seeds != nil { throw .conflictingOptions("--seed", "--seeds", command: "demo") }
    let seedList = seeds ?? [seed ?? defaultSeed]
    let schedule = try ScheduleOptions.settings(from: parsed)
    var base = schedule == nil ? defaults : scheduleDefaults
    base.scheduleSettings = schedule
    base.scenarios = try parsed.integer("--scenarios", atLeast: 1) ?? base.scenarios
    base.invocations = try parsed.integer("--invocations", atLeast: 1) ?? base.invocations
    base.timeLimit = try parsed.duration("--time")
    base.shrinkTimeLimit = try parsed.duration("--shrink-time") ?? defaults.shrinkTimeLimit
    base.reproDirectory = parsed.value("--repro-dir") ?? defaults.reproDirectory
    base.isolated = !parsed.flag("--no-isolation")
    base.hangTimeout = try parsed.duration("--hang-timeout") ?? defaults.hangTimeout
    base.origin = .program(context.programName)
    let json = parsed.flag("--json")
    let shard = try parsed.shard("--shard")
    // Only the targets --targets names, when given; a name no target has is a usage error.
    let chosen = try parsed.value("--targets").map { list throws(UsageError) in
      try Set(
        list.split(separator: ",").map { name throws(UsageError) in
          try context.target(named: String(name)).name
        })
    }
    let targets = context.driver.targets.compactMap {
      target -> (target: Target, expectation: Expectation)? in
      guard chosen?.contains(target.name) ?? true,
        !parsed.flag("--explorations") || target.isExploration
      else { return nil }
      // A target without a schedule expectation may not run under the scheduler at all (it may trap).
      return (schedule == nil ? target.stressExpectation : target.scheduleModeExpectation).map {
        (target: target, expectation: $0)
      }
    }
    // Comparing nothing would agree with everything: no row to run is a mistake, not a pass.
    guard !targets.isEmpty else { throw .noExpectations }
    let showsSeed = seedList.count > 1

    // The columns are sized from what is known before any check runs, so each row prints as soon as it is found.
    let header =
      ["target", "expected", "found", "diagnosis"] + (showsSeed ? ["seed"] : []) + ["time"]
    var widths = [
      targets.map(\.target.name.count).max() ?? 0,
      targets.map { ListCommand.describe($0.expectation).count }.max() ?? 0,
      max("spec error".count, Verdict.inconclusive.rawValue.count),
      BugPattern.allCases.map(\.rawValue.count).max() ?? 0,
    ]
    if showsSeed { widths.append(Configuration.formatSeed(0).count) }
    let table = TextTable(widths: zip(widths, header).map { max($0, $1.count) })
    if !json { context.print(table.line(header)) }

    let started = MonotonicInstant.now()
    var outcomes: [Outcome] = []
    let interruption = Interruption.watch()
    defer { interruption.stop() }
    let statusLine = context.statusLine(for: parsed)
    let allRows = 0..<(targets.count * seedList.count)
    let rowCount = shard?.count(in: allRows) ?? allRows.count
    var index = -1
    rows: for (target, expectation) in targets {
      for seed in seedList {
        index += 1
        guard shard?.contains(index) ?? true else { continue }
        if interruption.signal != nil { break rows }
        var configuration = base
        if let own = target.demoConfiguration, schedule == nil, parsed.value("--scenarios") == nil,
          parsed.value("--invocations") == nil
        {
          configuration.scenarios = own.scenarios
          configuration.invocations = own.invocations
          configuration.timeLimit = own.timeLimit ?? configuration.timeLimit
        }
        // A body's budget is an exploration's, not a spec's schedules per scenario, unless told.
        if target.isExploration, parsed.value("--schedules") == nil,
          case .schedule(var settings) = configuration.mode
        {
          settings.schedules = ScheduleSettings.exploration.schedules
          configuration.mode = .schedule(settings)
        }
        configuration.seed = seed
        let report = context.check(
          target, configuration, interruption: interruption,
          progress: statusLine?.progress(prefix: "row \(outcomes.count + 1) of \(rowCount): "))
        statusLine?.clear()
        let outcome = Outcome(
          index: index, target: target, expectation: expectation, report: report)
        outcomes.append(outcome)
        if !json { context.print(table.line(row(outcome, showsSeed: showsSeed))) }
      }
    }

    let tally = DemoTally(outcomes.map(\.tallied), isPart: shard != nil)
    let elapsed = started.elapsed
    var status = tally.status
    if let signal = interruption.signal {
      status = .interrupted(by: signal)
      context.printError(
        "\(context.programName): demo interrupted by \(SignalName.name(of: signal)) after \(outcomes.count) rows"
      )
    }
    if let path = parsed.value("--junit") {
      let junit = JUnitReport(
        name: "racecheck demo",
        cases: outcomes.enumerated().map { junitCase($1, position: $0, tally: tally) },
        timestamp: Date())
      status = status.afterWritingReportFile(
        succeeded: context.writeReportFile(junit.xml, to: path, what: "JUnit report"))
    }
    status = HTMLOption.write(parsed, status: status, context) {
      HTMLReport.page(
        ofDemo: outcomes.map { htmlRow($0, programName: context.programName) }, elapsed: elapsed)
    }
    if json {
      let document = DemoJSON(
        rows: outcomes.map(jsonRow), tally: tally, seconds: JSONNumber(seconds: elapsed),
        shard: OrNull(shard))
      return context.printJSON(document, status: status)
    }
    context.print("")
    context.print(tally.summary(elapsed: CheckReport.formatDuration(elapsed)))
    let problems = tally.problems { index in
      [
        "  Replay: "
          + RunCommand.replayCommand(of: outcomes[index].report, programName: context.programName)
      ]
    }
    problems.forEach(context.print)
    return status
  }

  private static func row(_ outcome: Outcome, showsSeed: Bool) -> [String] {
    let report = outcome.report
    return [
      outcome.target.name,
      ListCommand.describe(outcome.expectation),
      report.specError != nil ? "spec error" : report.verdict.rawValue,
      report.failure?.diagnosis.pattern.rawValue ?? "—",
    ] + (showsSeed ? [Configuration.formatSeed(report.seed)] : []) + [
      CheckReport.formatDuration(report.elapsed)
    ]
  }

  /// The row as the HTML page shows it, its failure with the command that checks it again.
  private static func htmlRow(_ outcome: Outcome, programName: String) -> HTMLReport.DemoRow {
    var report = outcome.report
    report.replayCommand = RunCommand.replayCommand(of: report, programName: programName)
    return HTMLReport.DemoRow(
      target: outcome.target.name, expected: ListCommand.describe(outcome.expectation),
      agrees: outcome.agrees, report: report,
      window: RunCommand.failingWindow(of: report, target: outcome.target))
  }

  private static func jsonRow(_ outcome: Outcome) -> DemoJSON.Row {
    let report = outcome.report
    return DemoJSON.Row(
      index: outcome.index,
      target: outcome.target.name,
      expected: outcome.expectation.verdict,
      verdict: report.verdict,
      expectedDiagnosis: OrNull(outcome.expectation.diagnosis),
      diagnosis: OrNull(report.failure?.diagnosis.pattern),
      agrees: outcome.agrees,
      judgement: outcome.judgement.name,
      reason: OrNull(outcome.judgement.reason),
      seconds: JSONNumber(seconds: report.elapsed),
      seed: Configuration.formatSeed(report.seed),
      minimizedOperations: OrNull(report.failure?.scenario.allCalls.count),
      inconclusive: OrNull(report.inconclusiveReason?.description),
      specError: OrNull(report.specError?.message))
  }

  /// A row as a JUnit test case, judged by the catalogue's contract (``DemoTally/junitOutcome(ofRun:details:)``).
  private static func junitCase(_ outcome: Outcome, position: Int, tally: DemoTally)
    -> JUnitReport.TestCase
  {
    let report = outcome.report
    var testCase = JUnitReport.TestCase(
      report, name: RunCommand.caseName(of: report), className: "racecheck.demo")
    testCase.outcome = tally.junitOutcome(ofRun: position, details: report.description)
    if case .passed = testCase.outcome { testCase.output = report.description }
    return testCase
  }
}
