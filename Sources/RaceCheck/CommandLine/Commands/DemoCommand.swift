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
      .flag("--json", "Print one JSON document instead of the table."),
    ] + ScheduleOptions.options,
    discussion: [
      "A row agrees when its verdict and diagnosis are the catalogue's; an inconclusive row",
      "(a search cut short) does not. Exits 0 when every row agrees, 1 otherwise, and 130 or",
      "143 after SIGINT or SIGTERM, once the rows checked so far are printed. Each row that",
      "disagrees is followed by the 'run' command that checks it again.",
    ],
    execute: { parsed, context throws(UsageError) in try run(parsed, context) })

  /// One check of one target with one seed.
  private struct Outcome {
    var target: Target
    var expectation: Expectation
    var report: CheckReport
    var agrees: Bool { expectation.isMet(by: report) && report.specError == nil }
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
    base.schedule = schedule
    base.scenarios = try parsed.integer("--scenarios", atLeast: 1) ?? base.scenarios
    base.invocations = try parsed.integer("--invocations", atLeast: 1) ?? base.invocations
    base.timeLimit = try parsed.duration("--time")
    base.shrinkTimeLimit = try parsed.duration("--shrink-time") ?? defaults.shrinkTimeLimit
    base.reproDirectory = parsed.value("--repro-dir") ?? defaults.reproDirectory
    base.isolated = !parsed.flag("--no-isolation")
    base.hangTimeout = try parsed.duration("--hang-timeout") ?? defaults.hangTimeout
    base.origin = .program(context.programName)
    let json = parsed.flag("--json")
    let targets = context.driver.targets.compactMap { target in
      // A target without a schedule expectation may not run under the scheduler at all (it may trap).
      (schedule == nil ? target.stressExpectation : target.scheduleExpectation).map {
        (target: target, expectation: $0)
      }
    }
    let showsSeed = seedList.count > 1

    // The columns are sized from what is known before any check runs, so each row prints as soon as it is found.
    let header =
      ["target", "expected", "found", "diagnosis"] + (showsSeed ? ["seed"] : []) + ["time"]
    var widths = [
      targets.map(\.target.name.count).max() ?? 0,
      targets.map { ListCommand.describe($0.expectation).count }.max() ?? 0,
      "spec error".count,
      BugPattern.allCases.map(\.rawValue.count).max() ?? 0,
    ]
    if showsSeed { widths.append(Configuration.formatSeed(0).count) }
    let table = TextTable(widths: zip(widths, header).map { max($0, $1.count) })
    if !json { context.print(table.line(header)) }

    let started = MonotonicClock.now()
    var outcomes: [Outcome] = []
    let interruption = Interruption.watch()
    defer { interruption.stop() }
    rows: for (target, expectation) in targets {
      for seed in seedList {
        if interruption.signal != nil { break rows }
        var configuration = base
        if let own = target.demoConfiguration, schedule == nil, parsed.value("--scenarios") == nil,
          parsed.value("--invocations") == nil
        {
          configuration.scenarios = own.scenarios
          configuration.invocations = own.invocations
          configuration.timeLimit = own.timeLimit ?? configuration.timeLimit
        }
        configuration.seed = seed
        let outcome = Outcome(
          target: target, expectation: expectation,
          report: context.check(target, configuration, interruption: interruption))
        outcomes.append(outcome)
        if !json { context.print(table.line(row(outcome, showsSeed: showsSeed))) }
      }
    }

    let agreed = outcomes.filter(\.agrees).count
    let seconds = Double(MonotonicClock.now() - started) / 1e9
    var status: ExitStatus = agreed == outcomes.count ? .success : .failureFound
    if let signal = interruption.signal {
      status = .interrupted(by: signal)
      context.printError(
        "\(context.programName): demo interrupted by \(SignalName.name(of: signal)) after \(outcomes.count) rows"
      )
    }
    if json {
      let document = DemoJSON(
        rows: outcomes.map(jsonRow), agreed: agreed, total: outcomes.count,
        seconds: JSONNumber(seconds))
      return context.printJSON(document, status: status)
    }
    let noun = showsSeed ? "runs" : "targets"
    context.print("")
    context.print(
      "\(agreed) of \(outcomes.count) \(noun) agree with the catalogue (\(CheckReport.formatSeconds(seconds)))"
    )
    for outcome in outcomes where !outcome.agrees {
      context.print(
        "Disagrees: \(outcome.target.name) with seed \(Configuration.formatSeed(outcome.report.seed)): expected "
          + "\(ListCommand.describe(outcome.expectation)), found \(found(outcome.report))")
      context.print(
        "  Replay: "
          + RunCommand.replayCommand(of: outcome.report, programName: context.programName))
    }
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
      CheckReport.formatSeconds(report.seconds)
    ]
  }

  /// What a check found, as the disagreement line shows it.
  private static func found(_ report: CheckReport) -> String {
    if let specError = report.specError { return "a broken spec: \(specError.message)" }
    if let reason = report.inconclusiveReason { return "inconclusive: \(reason)" }
    return report.failure.map { "fail: \($0.diagnosis.pattern.rawValue)" } ?? "pass"
  }

  private static func jsonRow(_ outcome: Outcome) -> DemoJSON.Row {
    let report = outcome.report
    return DemoJSON.Row(
      target: outcome.target.name,
      expected: outcome.expectation.verdict,
      verdict: report.verdict,
      expectedDiagnosis: OrNull(outcome.expectation.diagnosis),
      diagnosis: OrNull(report.failure?.diagnosis.pattern),
      agrees: outcome.agrees,
      seconds: JSONNumber(report.seconds),
      seed: Configuration.formatSeed(report.seed),
      inconclusive: OrNull(report.inconclusiveReason?.description),
      specError: OrNull(report.specError?.message))
  }
}
