import Foundation
import RaceCheckEngine

// The documents `--json` prints. Each is a small Encodable struct whose property names are the
// JSON keys, so the shape of the output can be read here in one place; `JSONOutput.encode`
// writes them on one line with sorted keys.

/// Encodes the command line's JSON documents.
enum JSONOutput {
  /// One line of JSON with sorted keys and unescaped slashes, so paths read as typed.
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

/// A value written as `null` when absent; synthesized `Encodable` would leave an absent key out instead.
struct OrNull<Wrapped: Encodable>: Encodable {
  var value: Wrapped?

  init(_ value: Wrapped?) {
    self.value = value
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let value { try container.encode(value) } else { try container.encodeNil() }
  }
}

extension OrNull: Decodable where Wrapped: Decodable {
  /// Reads `null` as absent, as `merge` reads the documents back.
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    value = container.decodeNil() ? nil : try container.decode(Wrapped.self)
  }
}

/// A number written as `null` when it is infinite or NaN, which `JSONEncoder` would refuse.
struct JSONNumber: Encodable {
  var value: Double

  init(_ value: Double) {
    self.value = value
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
  }
}

extension JSONNumber {
  /// `time` as every JSON document racecheck writes a time: a number of seconds.
  init(seconds time: Duration) {
    self.init(time.seconds)
  }
}

extension JSONNumber: Decodable {
  /// Reads `null` as NaN, which encodes as `null` again.
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    value = container.decodeNil() ? .nan : try container.decode(Double.self)
  }
}

/// `racecheck run --json`: one check's report.
struct RunJSON: Codable {
  var target: String
  /// `pass`, `fail` or `inconclusive`.
  var verdict: Verdict
  /// Why the search was cut short, for an inconclusive verdict.
  var inconclusive: OrNull<String>
  var seed: String
  /// What the search explored: scenarios, invocations, overlapping invocations, distinct outcomes.
  var search: SearchSummary
  var scenarios: Int
  var invocations: Int
  /// The whole check's seconds: the search, and for a failure its shrinking and diagnosis.
  var seconds: JSONNumber
  /// Seconds from the start until the first failing invocation; null for no failure.
  ///
  /// Optional, so that `merge` still reads the documents of versions that did not write it.
  var secondsToFind: OrNull<JSONNumber>?
  /// Seconds spent shrinking the failure; null for no failure, or one that was not shrunk.
  var secondsShrinking: OrNull<JSONNumber>?
  /// The signal that stopped the check, if one did.
  var interruptedBy: OrNull<String>
  /// How the failure showed: `non-linearizable`, `crash`, `hang`, `exit`, `data-race`, `deadlock`, `step-bound` or `failed-expectation`; null for a pass.
  var failure: OrNull<String>
  var diagnosis: OrNull<Diagnosis>
  /// The expectations an explored body failed, each a `message` and a `location`; null for any other failure.
  ///
  /// Optional, so that `merge` still reads the documents of versions that did not write it.
  var failedExpectations: OrNull<[ExpectationFailure]>?
  /// The minimized scenario of the failure.
  var scenario: OrNull<Scenario>
  /// The failure's scenario as the search found it, before shrinking.
  var originalScenario: OrNull<Scenario>
  /// The shrinking steps that each made the failing scenario smaller.
  var shrinkSteps: Int
  /// Whether shrinking ran out of time (or was interrupted) before the scenario was minimal.
  var shrinkingCutShort: Bool
  /// What racecheck saw of a crash, a hang or an early exit: signal, message, threads, stacks.
  var crash: OrNull<CrashEvidence>
  /// In schedule mode, the interleaving of the failing schedule: thread names, steps and the schedule itself.
  var trace: OrNull<InterleavingTrace>
  var reproPath: OrNull<String>
  /// How many of the minimized scenario's last invocations failed; 0 for a pass.
  var failedInvocations: Int
  var replayCommand: OrNull<String>
  var specError: OrNull<String>
  /// The part of the run this check made, `K/N`, or null for the whole run.
  var shard: OrNull<Shard>
  /// The index of the failing scenario in the seed's sequence; null for no failure.
  var scenarioIndex: OrNull<Int>
  /// racecheck's own crash, which left the check without a verdict (exit status 70); null otherwise.
  var internalFault: OrNull<InternalFault>

  init(_ report: CheckReport) {
    target = report.target
    verdict = report.verdict
    inconclusive = OrNull(report.inconclusiveReason?.description)
    seed = Configuration.formatSeed(report.seed)
    search = report.search
    interruptedBy = OrNull(report.stoppingSignal.map(SignalName.name))
    scenarios = report.scenarios
    invocations = report.invocations
    seconds = JSONNumber(seconds: report.elapsed)
    secondsToFind = OrNull(report.failure.map { JSONNumber(seconds: $0.timeToFind) })
    secondsShrinking = OrNull(report.failure?.timeToShrink.map { JSONNumber(seconds: $0) })
    failure = OrNull(report.failure.map(\.kind.rawValue))
    diagnosis = OrNull(report.failure?.diagnosis)
    failedExpectations = OrNull(report.failure?.evidence.failedExpectations)
    scenario = OrNull(report.failure?.scenario)
    originalScenario = OrNull(report.failure?.original)
    shrinkSteps = report.failure?.shrinkSteps ?? 0
    shrinkingCutShort = report.failure?.shrinkingCutShort ?? false
    crash = OrNull(report.failure?.crash)
    trace = OrNull(report.failure?.trace)
    reproPath = OrNull(report.failure?.reproPath)
    failedInvocations = report.failure?.failedInvocations ?? 0
    replayCommand = OrNull(report.replayCommand)
    specError = OrNull(report.specError?.message)
    shard = OrNull(report.configuration.shard)
    scenarioIndex = OrNull(report.failure?.scenarioIndex)
    internalFault = OrNull(report.internalFault)
  }
}

/// `racecheck replay --json`: how often a repro's scenario failed again.
struct ReplayJSON: Encodable {
  var file: String
  var target: String
  var seed: String
  /// `fail` when the failure showed again, `inconclusive` when it did not.
  var verdict: Verdict
  /// The share of invocations that failed, when any ran.
  var failureRate: JSONNumber?
  var seconds: JSONNumber
  var invocations: Int
  var failedInvocations: Int
  /// The diagnosis of a failing invocation of this replay.
  var diagnosis: OrNull<Diagnosis>
  /// The diagnosis the repro file recorded when the failure was found.
  var recordedDiagnosis: OrNull<BugPattern>
  var scenario: Scenario
  /// What racecheck saw when the replay crashed, hung or exited its isolated child.
  var crash: OrNull<CrashEvidence>
  /// The interleaving a schedule-mode replay ran.
  var trace: OrNull<InterleavingTrace>
  /// Where a schedule-mode replay left its recorded schedule.
  var divergence: OrNull<String>
  var specError: OrNull<String>

  init(file: String, _ report: ReplayReport) {
    self.file = file
    target = report.repro.target
    seed = report.repro.seed
    verdict =
      switch report.outcome {
      case .reproduced: .fail
      case .notReproduced, .inconclusive, .specError: .inconclusive
      }
    failureRate = report.failureRate.map(JSONNumber.init)
    seconds = JSONNumber(seconds: report.elapsed)
    invocations = report.invocations
    failedInvocations = report.failures
    diagnosis = OrNull(report.diagnosis)
    recordedDiagnosis = OrNull(report.repro.diagnosis)
    scenario = report.repro.scenario
    crash = OrNull(report.crash)
    trace = OrNull(report.trace)
    divergence = OrNull(report.divergence)
    specError = OrNull(report.specError?.message)
  }
}

/// `racecheck demo --json`: one row per target and seed, each target's judgement, and the tally of targets.
struct DemoJSON: Codable {
  struct Row: Codable {
    /// The row's place in the whole demo, from 0, sharded or not.
    var index: Int
    var target: String
    var expected: Verdict
    var verdict: Verdict
    var expectedDiagnosis: OrNull<BugPattern>
    var diagnosis: OrNull<BugPattern>
    /// Whether this run reached the expected verdict and named an expected bug.
    var agrees: Bool
    /// The run's judgement by the catalogue's contract: `agrees`, `unsettled` or `wrong`.
    var judgement: String
    /// Why the run was unsettled or wrong.
    var reason: OrNull<String>
    var seconds: JSONNumber
    var seed: String
    /// The calls of the minimized failing scenario, for a row that failed: how far shrinking got.
    var minimizedOperations: OrNull<Int>
    /// Why the row's search was cut short, for an inconclusive verdict.
    var inconclusive: OrNull<String>
    var specError: OrNull<String>

    /// The run as the tally counts it; an unknown judgement, from another version's file, counts as wrong.
    var tallied: DemoTally.Run {
      DemoTally.Run(
        target: target, seed: seed, expected: expected,
        expectedText: expectedDiagnosis.value.map { "\(expected.rawValue): \($0.rawValue)" }
          ?? expected.rawValue,
        judgement: Expectation.SeedJudgement(name: judgement, reason: reason.value)
          ?? .wrong(reason: "an unknown judgement, \(judgement)"))
    }
  }

  /// A target's judgement over its rows.
  struct Target: Codable {
    var target: String
    var judgement: Expectation.TargetJudgement
  }

  var rows: [Row]
  /// Each target's judgement, in the order of its first row.
  var targets: [Target]
  /// The targets that agree with the catalogue.
  var agreed: Int
  /// The targets checked.
  var total: Int
  var seconds: JSONNumber
  /// The part of the demo these rows are, `K/N`, or null for the whole demo.
  var shard: OrNull<Shard>

  init(rows: [Row], tally: DemoTally, seconds: JSONNumber, shard: OrNull<Shard>) {
    self.rows = rows
    targets = tally.targets.map { Target(target: $0.name, judgement: $0.judgement) }
    agreed = tally.agreed
    total = tally.targets.count
    self.seconds = seconds
    self.shard = shard
  }
}

/// `racecheck bench --json`: the measured figures.
struct BenchJSON: Encodable {
  struct Result: Encodable {
    var name: String
    var value: JSONNumber
    var unit: String
  }

  var results: [Result]
}
