/// How a spec's check runs: the seed, the scenario shape, stress or schedule mode, and the budgets.
///
/// Each kind of check has one settings value, and a knob two kinds share has one name:
/// a spec's check takes this one, `explore` a ``Configuration/Exploration`` and a workload a
/// ``Configuration/Workload``, both nested here.
///
/// The shape is Lincheck's: 2 threads of 5 operations, 5 before and 5 after. The budget,
/// 30 scenarios of 500 overlapping invocations each, is measured to find every bug of
/// the catalogue on seeds 1 to 10 and keeps a check of a correct type to seconds on two
/// cores; a pass says whether a larger budget would likely explore more
/// (`SearchSummary.chanceOfNewResults`).
///
/// ```swift
/// check(spec, configuration: Configuration(seed: 0x5EED, scenarios: 20))
/// check(spec, configuration: Configuration(seed: 0x5EED, mode: .schedule(strategy: .dpor)))
/// ```
public struct Configuration: Hashable, Sendable, Codable {
  /// The sizes of a scenario's three parts.
  public struct Shape: Hashable, Sendable, Codable {
    /// The most threads a scenario may have: more spin past what a machine's cores can overlap.
    public static let maximumThreads = 64

    /// The number of threads in the parallel part.
    public var threads: Int
    /// The number of operations each thread makes.
    public var operationsPerThread: Int
    /// The number of operations before the threads start.
    public var initialOperations: Int
    /// The number of operations after the threads finish.
    public var postOperations: Int

    /// Creates a shape; the defaults are 2 threads × 5 operations, 5 before and 5 after.
    public init(
      threads: Int = 2, operationsPerThread: Int = 5, initialOperations: Int = 5,
      postOperations: Int = 5
    ) {
      self.threads = threads
      self.operationsPerThread = operationsPerThread
      self.initialOperations = initialOperations
      self.postOperations = postOperations
    }
  }

  /// The run's seed, or nil to derive one from the spec's name so that runs repeat.
  ///
  /// The environment variable `RACECHECK_SEED` overrides it when a check runs from a test.
  public var seed: UInt64?
  /// The shape of every scenario.
  public var shape: Shape
  /// The number of scenarios to run, at most.
  public var scenarios: Int
  /// The invocations of each scenario in which its threads ran at the same time: the search's budget per scenario.
  ///
  /// Each invocation runs on a fresh subject. On a busy machine threads often run one
  /// after the other, and such an invocation tests nothing concurrent, so a scenario runs
  /// until this many invocations overlapped, up to ten times as many in all; a scenario
  /// that reaches that cap makes the verdict `inconclusive` rather than a weaker pass.
  public var invocations: Int
  /// The index of the first scenario to run, so that a replay starts at the scenario that failed.
  public var firstScenario: Int
  /// The wall-clock budget of the whole check, or nil for none.
  ///
  /// A search the limit stops before its scenarios are done is `inconclusive`; shrinking a
  /// failure found in time may run past the limit by a tenth of it at most.
  public var timeLimit: Duration?
  /// Whether a failure is shrunk to a minimal scenario before it is reported.
  public var minimizes: Bool
  /// The wall-clock budget for shrinking a failure, or nil for none.
  ///
  /// A candidate scenario that has lost a rare failure runs its whole budget before it is
  /// rejected, and a crash's candidates each run in a fresh child, so shrinking can take
  /// far longer than finding. When the budget runs out, the smallest failing scenario
  /// found so far is reported.
  public var shrinkTimeLimit: Duration?
  /// The folder repro files are written to, or nil for `.racecheck/repro` in the current directory.
  public var reproDirectory: String?
  /// Whether the check runs in a child process, so that a crash or a hang becomes a report.
  ///
  /// On by default: the child costs tens of milliseconds at the start, and a crash in the
  /// code under test then fails one check instead of ending the test run. From a test,
  /// the child is the test binary itself, started again to run only the current test;
  /// where the current test cannot be named (an XCTest check made off the test method's
  /// thread), the check runs in the test process.
  public var isolated: Bool
  /// How long an invocation may make no progress in an isolated child before the check reports a hang.
  ///
  /// Only the time the machine does not keep the child from a CPU counts, so a busy machine
  /// does not make a slow child hang; one kept waiting for six times this long ends the
  /// check `inconclusive`. A call of an `async` operation whose own `timeout:` is shorter is
  /// a hang after that.
  public var hangTimeout: Duration
  /// Whether a check from a test fails when its verdict is `inconclusive`, rather than warning.
  ///
  /// An inconclusive check (a search cut short by a time limit or by threads that rarely
  /// ran together) is never a quiet pass: by default it records a warning.
  public var requiresConclusiveVerdict: Bool = false
  /// Whether scenarios run on real threads (`.stress`) or under the controlled scheduler (`.schedule`), with its settings.
  ///
  /// In schedule mode `invocations` is unused: the settings' `schedules` is the budget of
  /// each scenario.
  public var mode: Mode
  /// The part of the run this check makes, or nil for the whole run.
  ///
  /// A sharded check runs only the scenarios of its shard (see ``Shard``), and its verdict
  /// covers only them: `racecheck merge` combines the shards' verdicts.
  package var shard: Shard?
  /// Where the check was started, or nil when neither a test nor a program's command line started it.
  ///
  /// `check(_:)` and ``CommandLineDriver`` set it; repro files record it, which names them
  /// apart and lets `racecheck replay` say how to run a test's check again.
  public var origin: Origin?
  /// Whether the check explores a body (``Exploration``) rather than a spec's scenarios; set by ``exploringABody``.
  package var exploresABody = false

  /// Creates a configuration; every parameter has a default.
  public init(
    seed: UInt64? = nil,
    shape: Shape = Shape(),
    scenarios: Int = 30,
    invocations: Int = 500,
    firstScenario: Int = 0,
    timeLimit: Duration? = nil,
    minimizes: Bool = true,
    shrinkTimeLimit: Duration? = .seconds(10),
    reproDirectory: String? = nil,
    isolated: Bool = true,
    hangTimeout: Duration = .seconds(10),
    mode: Mode = .stress
  ) {
    self.seed = seed
    self.shape = shape
    self.scenarios = scenarios
    self.invocations = invocations
    self.firstScenario = firstScenario
    self.timeLimit = timeLimit
    self.minimizes = minimizes
    self.shrinkTimeLimit = shrinkTimeLimit
    self.reproDirectory = reproDirectory
    self.isolated = isolated
    self.hangTimeout = hangTimeout
    self.mode = mode
  }

  /// Schedule mode's settings, or nil in stress mode; setting nil chooses stress mode.
  package var scheduleSettings: ScheduleSettings? {
    get { mode.scheduleSettings }
    set { mode = newValue.map { .schedule($0) } ?? .stress }
  }

  /// The seed the run uses: the configured one, else one derived from `name` (FNV-1a).
  func effectiveSeed(forSpecNamed name: String) -> UInt64 {
    if let seed { return seed }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in name.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
    }
    return hash
  }
}

extension Configuration {
  private enum CodingKeys: String, CodingKey {
    case seed, shape, scenarios, invocations, firstScenario, timeLimit, minimizes, shrinkTimeLimit,
      reproDirectory, isolated, hangTimeout, requiresConclusiveVerdict, schedule, shard, origin,
      exploresABody
  }

  /// Encodes a configuration, with times in seconds as repro files have always written them.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(seed, forKey: .seed)
    try container.encode(shape, forKey: .shape)
    try container.encode(scenarios, forKey: .scenarios)
    try container.encode(invocations, forKey: .invocations)
    if firstScenario != 0 { try container.encode(firstScenario, forKey: .firstScenario) }
    try container.encodeIfPresent(timeLimit?.seconds, forKey: .timeLimit)
    try container.encode(minimizes, forKey: .minimizes)
    try container.encode(shrinkTimeLimit?.seconds, forKey: .shrinkTimeLimit)
    try container.encodeIfPresent(reproDirectory, forKey: .reproDirectory)
    try container.encode(isolated, forKey: .isolated)
    try container.encode(hangTimeout.seconds, forKey: .hangTimeout)
    if requiresConclusiveVerdict {
      try container.encode(requiresConclusiveVerdict, forKey: .requiresConclusiveVerdict)
    }
    try container.encodeIfPresent(scheduleSettings, forKey: .schedule)
    try container.encodeIfPresent(shard, forKey: .shard)
    try container.encodeIfPresent(origin, forKey: .origin)
    if exploresABody { try container.encode(exploresABody, forKey: .exploresABody) }
  }

  /// Decodes a configuration; a key that is missing, as in files written before it existed, keeps its default.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = Configuration()
    seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
    shape = try container.decodeIfPresent(Shape.self, forKey: .shape) ?? defaults.shape
    scenarios = try container.decodeIfPresent(Int.self, forKey: .scenarios) ?? defaults.scenarios
    invocations =
      try container.decodeIfPresent(Int.self, forKey: .invocations) ?? defaults.invocations
    firstScenario = try container.decodeIfPresent(Int.self, forKey: .firstScenario) ?? 0
    timeLimit = try container.decodeIfPresent(Double.self, forKey: .timeLimit).map(Duration.seconds)
    minimizes = try container.decodeIfPresent(Bool.self, forKey: .minimizes) ?? defaults.minimizes
    shrinkTimeLimit =
      container.contains(.shrinkTimeLimit)
      ? try container.decodeIfPresent(Double.self, forKey: .shrinkTimeLimit).map(Duration.seconds)
      : defaults.shrinkTimeLimit
    reproDirectory = try container.decodeIfPresent(String.self, forKey: .reproDirectory)
    isolated = try container.decodeIfPresent(Bool.self, forKey: .isolated) ?? defaults.isolated
    hangTimeout =
      try container.decodeIfPresent(Double.self, forKey: .hangTimeout).map(Duration.seconds)
      ?? defaults.hangTimeout
    requiresConclusiveVerdict =
      try container.decodeIfPresent(Bool.self, forKey: .requiresConclusiveVerdict) ?? false
    mode =
      try container.decodeIfPresent(ScheduleSettings.self, forKey: .schedule).map {
        .schedule($0)
      } ?? defaults.mode
    shard = try container.decodeIfPresent(Shard.self, forKey: .shard)
    origin = try container.decodeIfPresent(Origin.self, forKey: .origin)
    exploresABody = try container.decodeIfPresent(Bool.self, forKey: .exploresABody) ?? false
  }
}

extension Configuration {
  /// The configuration `racecheck demo` gives each fixture: the default budget, and 3 s of shrinking.
  ///
  /// Tests use it so that they check what the demo shows. Shrinking a failure stops after
  /// 3 s with the smallest failing scenario found: enough, on a machine busy with other
  /// work, for a racy failure's scenario to come down to a few calls.
  package static func demo(seed: UInt64) -> Configuration {
    Configuration(seed: seed, shrinkTimeLimit: .seconds(3))
  }

  /// Parses a seed written in decimal or as `0x…` hexadecimal.
  package static func parseSeed(_ text: String) -> UInt64? {
    let trimmed = text.trimmingWhitespace()
    if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
      return UInt64(trimmed.dropFirst(2), radix: 16)
    }
    return UInt64(trimmed)
  }

  /// A seed as reports print it: `0x` and 16 hexadecimal digits.
  package static func formatSeed(_ seed: UInt64) -> String {
    let digits = String(seed, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
  }
}

extension StringProtocol {
  /// The text without the spaces, tabs and line breaks at its ends.
  func trimmingWhitespace() -> SubSequence {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return self[first...last]
  }
}
