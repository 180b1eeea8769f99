import RaceCheckEngine

/// `racecheck bench dpor`: the schedules partial-order reduction needs to explore every interleaving of the catalogue's 2 × 3 scenarios, against the unbounded depth-first search.
///
/// Both searches run each scenario to its end (or to their cap), failures included, so each
/// says whether some interleaving of the scenario fails: the two verdicts must agree, and
/// the reduction must get there in fewer schedules. The unbounded search of a scenario runs
/// to its end or to `--factor` times the reduction's schedules of it, one more than needed to
/// show that factor: most 2 × 3 scenarios have millions of interleavings, which it cannot end.
enum ReductionBenchCommand {
  static let defaultScenarios = 3
  static let defaultCap = 20_000
  static let defaultFactor = 10
  /// A preemption bound no 2 × 3 scenario reaches: the depth-first search is then complete.
  static let unboundedPreemptions = 1_000

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let scenarios = try parsed.integer("--scenarios", atLeast: 1) ?? defaultScenarios
    let cap = try parsed.integer("--schedules", atLeast: 1) ?? defaultCap
    let factor = try parsed.integer("--factor", atLeast: 1) ?? defaultFactor
    guard let plan = context.driver.benchmarks, !plan.reductionTargets.isEmpty else {
      throw .noBenchmarkPlan
    }
    // Only the targets --targets names, when given; a name no target has is a usage error.
    let chosen = try parsed.value("--targets").map { list throws(UsageError) in
      try list.split(separator: ",").map { name throws(UsageError) in
        try context.target(named: String(name)).name
      }
    }
    var rows: [ReductionBenchJSON.Row] = []
    for name in chosen ?? plan.reductionTargets {
      guard let target = context.driver.targets.first(where: { $0.name == name }) else {
        context.printError("\(context.programName): the benchmark plan names \(name), no target")
        return .internalError
      }
      // A body to explore is one scenario of one call, as `explore` runs it.
      let body = Configuration().exploringABody
      let (shape, scenarios) =
        target.isExploration ? (body.shape, body.scenarios) : (Benchmarks.twoByThree, scenarios)
      let reduced = target.checkable.explorations(
        shape: shape, scenarios: scenarios,
        settings: ScheduleSettings(strategy: .dpor, schedules: cap))
      let full = reduced.enumerated().map { index, reduced in
        target.checkable.exploration(
          shape: shape, scenario: index,
          settings: ScheduleSettings(
            strategy: .exhaustive, preemptionBound: unboundedPreemptions,
            schedules: reduced.complete
              ? max(cap, factor * reduced.schedules + 1) : cap))
      }
      let row = ReductionBenchJSON.Row(target: name, full: full, reduced: reduced)
      context.printError(
        "bench: \(name) \(row.fullCount) → \(row.reducedCount) schedules, verdicts "
          + (row.verdictsAgree ? "agree" : "DISAGREE"))
      rows.append(row)
    }
    let document = ReductionBenchJSON(rows: rows)
    let status: ExitStatus = rows.allSatisfy(\.verdictsAgree) ? .success : .failureFound
    if parsed.flag("--json") { return context.printJSON(document, status: status) }
    var table = [
      [
        "target", "scenarios", "dfs schedules", "dpor schedules", "fewer", "dfs", "dpor",
        "verdicts",
      ]
    ]
    table += (rows + [document.total]).map { row in
      [
        row.target, String(row.scenarios), row.fullCount, row.reducedCount, row.ratioText,
        row.fullVerdict.rawValue, row.reducedVerdict.rawValue,
        row.verdictsAgree ? "agree" : "disagree",
      ]
    }
    TextTable.render(table).forEach(context.print)
    context.print("")
    context.print(
      "A count after '>' hit its cap before its search ended: \(cap) schedules per scenario, or "
        + "for the unbounded search \(factor) times the reduction's schedules if more. It is a "
        + "lower bound, and so is a ratio after '>'; a reduced count that hit the cap gets no ratio. A search fails when some schedule of a scenario fails, even one the "
        + "cap cut short; one that found no failure passes if it ended, else is inconclusive. "
        + "Verdicts disagree when one search fails a scenario that the other passed.")
    return status
  }
}

/// What `racecheck bench dpor --json` prints: per target, the schedules each search ran, what each concluded, and whether they agree.
struct ReductionBenchJSON: Encodable {
  /// What one search concluded of a target's scenarios.
  enum Verdict: String, Encodable {
    /// Some schedule of some scenario failed.
    case fail
    /// No schedule failed, and the search ran every schedule it covers.
    case pass
    /// No schedule failed, but the cap cut the search short.
    case inconclusive

    init(_ explorations: [ScenarioExploration]) {
      if explorations.contains(where: \.failed) {
        self = .fail
      } else {
        self = explorations.allSatisfy(\.complete) ? .pass : .inconclusive
      }
    }
  }

  struct Row: Encodable {
    var target: String
    var scenarios: Int
    var fullSchedules: Int
    var fullComplete: Bool
    var fullVerdict: Verdict
    var reducedSchedules: Int
    var reducedComplete: Bool
    var reducedVerdict: Verdict
    var verdictsAgree: Bool

    init(target: String, full: [ScenarioExploration], reduced: [ScenarioExploration]) {
      self.target = target
      scenarios = full.count
      fullSchedules = full.map(\.schedules).reduce(0, +)
      fullComplete = full.allSatisfy(\.complete)
      fullVerdict = Verdict(full)
      reducedSchedules = reduced.map(\.schedules).reduce(0, +)
      reducedComplete = reduced.allSatisfy(\.complete)
      reducedVerdict = Verdict(reduced)
      // A failing schedule is a failure however short the search; a pass counts once it ended.
      verdictsAgree = zip(full, reduced).allSatisfy { pair in
        pair.0.failed == pair.1.failed || !(pair.0.failed ? pair.1 : pair.0).complete
      }
    }

    init(total rows: [Row]) {
      target = "all"
      scenarios = rows.map(\.scenarios).reduce(0, +)
      fullSchedules = rows.map(\.fullSchedules).reduce(0, +)
      fullComplete = rows.allSatisfy(\.fullComplete)
      reducedSchedules = rows.map(\.reducedSchedules).reduce(0, +)
      reducedComplete = rows.allSatisfy(\.reducedComplete)
      fullVerdict = Self.combined(rows.map(\.fullVerdict))
      reducedVerdict = Self.combined(rows.map(\.reducedVerdict))
      verdictsAgree = rows.allSatisfy(\.verdictsAgree)
    }

    private static func combined(_ verdicts: [Verdict]) -> Verdict {
      if verdicts.contains(.fail) { return .fail }
      return verdicts.contains(.inconclusive) ? .inconclusive : .pass
    }

    /// How many times fewer schedules the reduction ran, when its search ended and it ran any: a lower bound when the full search did not end.
    var ratio: Double? {
      guard reducedComplete, reducedSchedules > 0 else { return nil }
      return Double(fullSchedules) / Double(reducedSchedules)
    }

    /// The full search's schedules, after `>` when the cap cut it short.
    var fullCount: String { Self.count(fullSchedules, complete: fullComplete) }

    /// The reduced search's schedules, after `>` when the cap cut it short.
    var reducedCount: String { Self.count(reducedSchedules, complete: reducedComplete) }

    /// The ratio to one decimal, after `>` when it is a lower bound, or `-` when there is none.
    var ratioText: String {
      guard let ratio else { return "-" }
      return (fullComplete ? "" : "> ") + PlainNumber.text((ratio * 10).rounded(.down) / 10) + "×"
    }

    private static func count(_ schedules: Int, complete: Bool) -> String {
      (complete ? "" : "> ") + String(schedules)
    }
  }

  var rows: [Row]
  var total: Row { Row(total: rows) }

  private enum CodingKeys: String, CodingKey { case rows, total }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(rows, forKey: .rows)
    try container.encode(total, forKey: .total)
  }
}
