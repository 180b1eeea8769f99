import RaceCheckEngine

/// `racecheck bench dpor`: the schedules partial-order reduction needs to explore every interleaving of the catalogue's 2 × 3 scenarios, against the unbounded depth-first search.
///
/// Both searches run each scenario to its end (or to the cap), failures included, so each
/// says whether some interleaving of the scenario fails: the two verdicts must agree, and
/// the reduction must get there in fewer schedules.
enum ReductionBenchCommand {
  static let defaultScenarios = 3
  static let defaultCap = 20_000
  /// A preemption bound no 2 × 3 scenario reaches: the depth-first search is then complete.
  static let unboundedPreemptions = 1_000

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let scenarios = try parsed.integer("--scenarios", atLeast: 1) ?? defaultScenarios
    let cap = try parsed.integer("--schedules", atLeast: 1) ?? defaultCap
    guard let plan = context.driver.benchmarks, !plan.reductionTargets.isEmpty else {
      throw .noBenchmarkPlan
    }
    var rows: [ReductionBenchJSON.Row] = []
    for name in plan.reductionTargets {
      guard let target = context.driver.targets.first(where: { $0.name == name }) else {
        context.printError("\(context.programName): the benchmark plan names \(name), no target")
        return .internalError
      }
      let full = target.checkable.explorations(
        shape: Benchmarks.twoByThree, scenarios: scenarios,
        settings: ScheduleSettings(
          strategy: .exhaustive, preemptionBound: unboundedPreemptions, schedulesPerScenario: cap))
      let reduced = target.checkable.explorations(
        shape: Benchmarks.twoByThree, scenarios: scenarios,
        settings: ScheduleSettings(strategy: .dpor, schedulesPerScenario: cap))
      let row = ReductionBenchJSON.Row(target: name, full: full, reduced: reduced)
      context.printError(
        "bench: \(name) \(row.fullSchedules) → \(row.reducedSchedules) schedules, verdicts "
          + (row.verdictsAgree ? "agree" : "DISAGREE"))
      rows.append(row)
    }
    let document = ReductionBenchJSON(rows: rows)
    let status: ExitStatus = rows.allSatisfy(\.verdictsAgree) ? .success : .failureFound
    if parsed.flag("--json") { return context.printJSON(document, status: status) }
    var table = [["target", "scenarios", "dfs schedules", "dpor schedules", "fewer", "verdicts"]]
    table += (rows + [document.total]).map { row in
      [
        row.target, String(row.scenarios),
        String(row.fullSchedules) + (row.fullComplete ? "" : "+"),
        String(row.reducedSchedules) + (row.reducedComplete ? "" : "+"),
        row.ratio.map { PlainNumber.text($0) + "×" } ?? "-",
        row.verdictText,
      ]
    }
    TextTable.render(table).forEach(context.print)
    context.print("")
    context.print(
      "A count ending in + hit the cap of \(cap) schedules per scenario before its search ended: "
        + "a full count is then a bound, and no ratio is given for a reduced one. A verdict is "
        + "whether some schedule of a scenario fails; '-' where a search cut short found none.")
    return status
  }
}

/// What `racecheck bench dpor --json` prints: per target, the schedules each search ran and whether their verdicts agree.
struct ReductionBenchJSON: Encodable {
  struct Row: Encodable {
    var target: String
    var scenarios: Int
    var fullSchedules: Int
    var fullComplete: Bool
    var reducedSchedules: Int
    var reducedComplete: Bool
    var verdictsAgree: Bool

    init(target: String, full: [ScenarioExploration], reduced: [ScenarioExploration]) {
      self.target = target
      scenarios = full.count
      fullSchedules = full.map(\.schedules).reduce(0, +)
      fullComplete = full.allSatisfy(\.complete)
      reducedSchedules = reduced.map(\.schedules).reduce(0, +)
      reducedComplete = reduced.allSatisfy(\.complete)
      // A search cut by the cap that found no failure has no verdict to compare.
      verdictsAgree = zip(full, reduced).allSatisfy { pair in
        pair.0.failed == pair.1.failed || !(pair.0.complete && pair.1.complete)
      }
    }

    init(
      total rows: [Row]
    ) {
      target = "all"
      scenarios = rows.map(\.scenarios).reduce(0, +)
      fullSchedules = rows.map(\.fullSchedules).reduce(0, +)
      fullComplete = rows.allSatisfy(\.fullComplete)
      reducedSchedules = rows.map(\.reducedSchedules).reduce(0, +)
      reducedComplete = rows.allSatisfy(\.reducedComplete)
      verdictsAgree = rows.allSatisfy(\.verdictsAgree)
    }

    /// How many times fewer schedules the reduction ran, when its search ended and it ran any.
    var ratio: Double? {
      guard reducedComplete, reducedSchedules > 0 else { return nil }
      return Double(fullSchedules) / Double(reducedSchedules)
    }

    /// `agree` or `disagree`, or `-` when a search the cap cut short left nothing to compare.
    var verdictText: String {
      guard verdictsAgree else { return "disagree" }
      return fullComplete && reducedComplete ? "agree" : "-"
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
