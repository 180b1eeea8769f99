/// How a check ended: each verdict with what it rests on.
package enum CheckOutcome: Sendable, Codable {
  /// The whole budget was explored and nothing failed.
  case passed
  /// A failure was found; the report holds its evidence, shrunk as far as the budget allowed.
  case failed(FailureReport)
  /// The search was cut short before its budget was explored, so no verdict is claimed.
  case inconclusive(InconclusiveReason)
  /// The spec cannot run: it is invalid, or one of its operations threw.
  case specError(SpecError)
  /// The worker child kept dying of signals the code under test did not raise, such as SIGKILL from outside.
  case killedFromOutside(signal: Int32, attempts: Int)
  /// racecheck's own code crashed: a racecheck bug, which says nothing of the code under test.
  case internalFault(InternalFault)
}

/// Why a search was cut short before its budget was explored, or why what it explored is no pass.
package enum InconclusiveReason: Sendable, Codable, Hashable, CustomStringConvertible {
  /// The time limit ended the search after `scenarios` of the `planned` scenarios.
  case timeLimit(scenarios: Int, planned: Int)
  /// The threads rarely ran at the same time: `scenarios` scenarios reached the invocation cap before their count of overlapping invocations.
  case littleOverlap(scenarios: Int, cap: Int)
  /// A signal (SIGINT or SIGTERM) stopped the check.
  case interrupted(signal: Int32)
  /// In `scenarios` scenarios so many invocations trapped where the spec's requirements allow it that their budget was not reached.
  case contractTraps(scenarios: Int, limit: Int)
  /// Schedule mode: the code synchronized through something the scheduler cannot see, each named.
  case unseenSynchronization([String])
  /// Schedule mode with partial-order reduction: `scenarios` scenarios still had interleavings to explore after their budget of `schedules` schedules.
  case scheduleBudget(scenarios: Int, schedules: Int)
  /// Schedule mode, replaying a body's schedule (`RACECHECK_SCHEDULE`): it passed, and it was all that ran.
  case replayedSchedulePassed
  /// Schedule mode, replaying a body's schedule: the code took another path than the schedule's, at the place named.
  case replayDiverged(String)
  /// The isolated child made no progress while the machine kept it from a CPU, which proves no hang.
  case starved(Starvation)

  /// Why what ran is no pass, as the report's second line says it: `the search was cut short`.
  package var caveat: String {
    switch self {
    case .unseenSynchronization: "it rests on synchronization the scheduler did not see"
    case .replayedSchedulePassed, .replayDiverged: "only the replayed schedule ran"
    case .timeLimit, .littleOverlap, .interrupted, .contractTraps, .scheduleBudget, .starved:
      "the search was cut short"
    }
  }

  package var description: String {
    switch self {
    case .timeLimit(let scenarios, let planned):
      "the time limit ended the search after \(scenarios) of \(planned) scenarios"
    case .littleOverlap(let scenarios, let cap):
      "the threads rarely ran at the same time: \(scenarios) scenario\(scenarios == 1 ? "" : "s") "
        + "reached the cap of \(cap) invocations before enough of them overlapped (a busy machine?)"
    case .interrupted(let signal):
      "interrupted by \(SignalName.name(of: signal))"
    case .contractTraps(let scenarios, let limit):
      "\(scenarios) scenario\(scenarios == 1 ? "" : "s") stopped after \(limit) invocations trapped "
        + "where the spec's requirements allow it, short of the budget: give the operations "
        + "arguments that are valid more often"
    case .unseenSynchronization(let names):
      "schedule mode cannot see the synchronization of \(names.joined(separator: ", ")), "
        + "so it claims neither a pass nor a data race there: check it in stress mode"
    case .scheduleBudget(let scenarios, let schedules):
      "\(scenarios) scenario\(scenarios == 1 ? "" : "s") still had interleavings to explore after "
        + "\(schedules) schedules each: raise the budget (--schedules) for a pass that covers every one"
    case .replayedSchedulePassed:
      "the replayed schedule passed; only it ran, not the search: unset \(TestReplay.scheduleVariable) "
        + "(or leave out --schedule) to search every schedule"
    case .starved(let starvation):
      starvation.description
    case .replayDiverged(let divergence):
      "the code left the replayed schedule: \(divergence); it no longer runs as it did when the "
        + "schedule was recorded: unset \(TestReplay.scheduleVariable) (or leave out --schedule) to "
        + "search again"
    }
  }
}

/// What a search explored, which is what a pass is worth.
package struct SearchSummary: Sendable, Codable, Hashable {
  /// The scenarios run to the end of their budget or to a failure.
  package var scenarios: Int = 0
  /// The scenarios the configuration planned.
  package var plannedScenarios: Int = 0
  /// The invocations run, shrinking not included.
  package var invocations: Int = 0
  /// The invocations in which calls of different threads ran at the same time (every schedule, in schedule mode).
  package var overlappingInvocations: Int = 0
  /// The distinct outcomes (results and real-time order) the checker decided.
  package var distinctOutcomes: Int = 0
  /// How settled the scenarios' explorations were: the chance that one more invocation would have shown results not seen.
  package var chanceOfNewResults = ChanceOfNewResults()
  /// The scenarios that reached the invocation cap before their count of overlapping invocations.
  package var cappedScenarios: Int = 0
  /// The invocations that ended in a trap the spec's requirements allow, which the check excused.
  package var contractTraps: Int = 0
  /// The scenarios whose runs stopped short of their budget because too many invocations trapped by contract.
  package var scenariosStoppedByContractTraps: Int = 0
  /// Schedule mode with partial-order reduction: the scenarios whose every interleaving was explored.
  package var exhaustedScenarios: Int = 0
  /// Schedule mode with partial-order reduction: the scenarios whose budget ended before their interleavings did.
  package var scenariosCutByScheduleBudget: Int = 0
  /// Schedule mode: the C functions that ran with plain loads and stores no schedule saw, so that exploring every schedule proved nothing of them (``UntracedCode``).
  package var untracedCode: [String] = []

  /// Creates an empty summary for a search of `plannedScenarios` scenarios.
  package init(plannedScenarios: Int = 0) {
    self.plannedScenarios = plannedScenarios
  }

  private enum CodingKeys: String, CodingKey {
    case scenarios, plannedScenarios, invocations, overlappingInvocations, distinctOutcomes
    case chanceOfNewResults, cappedScenarios, contractTraps, scenariosStoppedByContractTraps
    case exhaustedScenarios, scenariosCutByScheduleBudget, untracedCode
  }

  /// Decodes a summary; the counts of partial-order reduction are 0 in one written before they existed.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    scenarios = try container.decode(Int.self, forKey: .scenarios)
    plannedScenarios = try container.decode(Int.self, forKey: .plannedScenarios)
    invocations = try container.decode(Int.self, forKey: .invocations)
    overlappingInvocations = try container.decode(Int.self, forKey: .overlappingInvocations)
    distinctOutcomes = try container.decode(Int.self, forKey: .distinctOutcomes)
    chanceOfNewResults = try container.decode(
      ChanceOfNewResults.self, forKey: .chanceOfNewResults)
    cappedScenarios = try container.decode(Int.self, forKey: .cappedScenarios)
    contractTraps = try container.decode(Int.self, forKey: .contractTraps)
    scenariosStoppedByContractTraps = try container.decode(
      Int.self, forKey: .scenariosStoppedByContractTraps)
    exhaustedScenarios = try container.decodeIfPresent(Int.self, forKey: .exhaustedScenarios) ?? 0
    scenariosCutByScheduleBudget =
      try container.decodeIfPresent(Int.self, forKey: .scenariosCutByScheduleBudget) ?? 0
    untracedCode = try container.decodeIfPresent([String].self, forKey: .untracedCode) ?? []
  }
}

/// The Good–Turing estimates, over a search's scenarios, of the chance that one more invocation shows results none showed.
///
/// A scenario's estimate is the share of its invocations whose results (whatever their
/// timing) no other invocation returned. Near 0, the scenario has likely shown what its
/// threads can return; a larger figure says a larger budget would likely explore more.
package struct ChanceOfNewResults: Sendable, Codable, Hashable {
  /// The scenarios estimated.
  package private(set) var scenarios = 0
  /// The mean estimate over the scenarios.
  package private(set) var mean = 0.0
  /// The largest estimate of any scenario.
  package private(set) var largest = 0.0

  /// Creates the estimates of no scenario.
  package init() {}

  /// Adds one scenario's estimate.
  mutating func add(_ chance: Double) {
    scenarios += 1
    mean += (chance - mean) / Double(scenarios)
    largest = max(largest, chance)
  }

  /// The estimates of both sets of scenarios: their mean weighted by scenario, the larger largest.
  func merging(_ other: ChanceOfNewResults) -> ChanceOfNewResults {
    var merged = self
    let total = scenarios + other.scenarios
    guard total > 0 else { return merged }
    merged.mean = (mean * Double(scenarios) + other.mean * Double(other.scenarios)) / Double(total)
    merged.scenarios = total
    merged.largest = max(largest, other.largest)
    return merged
  }
}

/// Signal names as reports print them.
package enum SignalName {
  /// `SIGINT` for 2, and so on; `signal N` for one without a common name.
  package static func name(of signal: Int32) -> String {
    let names: [Int32: String] = [
      1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS",
      8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
    ]
    return names[signal] ?? "signal \(signal)"
  }
}
