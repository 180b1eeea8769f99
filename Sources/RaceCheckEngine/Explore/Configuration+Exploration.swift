extension Configuration {
  /// How `explore` searches a body's schedules: the strategy, the budget, the seed and the isolation.
  ///
  /// The knobs have the names ``Configuration`` and ``Configuration/Workload`` give the same
  /// ones: `seed`, `timeLimit`, `schedules`, `strategy`, `isolated`, `hangTimeout`.
  ///
  /// ```swift
  /// explore(configuration: Configuration.Exploration(strategy: .dpor, schedules: 5_000)) {
  ///   // the body
  /// }
  /// ```
  public struct Exploration: Hashable, Sendable {
    /// How each schedule is chosen: a random walk by default.
    ///
    /// `.dpor` explores one schedule of every class of equivalent interleavings, and a pass
    /// then says it covered every one; `.exhaustive` every schedule within
    /// ``preemptionBound``; `.pct` PCT of depth 3.
    public var strategy: ScheduleSettings.Strategy
    /// The most schedules to run; a `.dpor` search they cut short is inconclusive.
    public var schedules: Int
    /// The most preemptions in one schedule of an `.exhaustive` search.
    public var preemptionBound: Int
    /// The seed of the schedules, or nil for one derived from the name; `RACECHECK_SEED` overrides it.
    public var seed: UInt64?
    /// The most the search may take, or nil for no limit; a search it cuts short is inconclusive.
    public var timeLimit: Duration?
    /// Whether to run in a child process, so that a crash or a hang fails the test with its stack instead of ending the test run.
    ///
    /// An expectation that fails in a schedule is then recorded only in the report.
    public var isolated: Bool
    /// How long a schedule may make no progress in an isolated child before the search reports a hang.
    public var hangTimeout: Duration

    /// Creates a configuration; the defaults are a random walk of 1,000 schedules in a child process.
    public init(
      strategy: ScheduleSettings.Strategy = .random,
      schedules: Int = ScheduleSettings.exploration.schedules,
      preemptionBound: Int = 2,
      seed: UInt64? = nil,
      timeLimit: Duration? = nil,
      isolated: Bool = true,
      hangTimeout: Duration = .seconds(10)
    ) {
      self.strategy = strategy
      self.schedules = schedules
      self.preemptionBound = preemptionBound
      self.seed = seed
      self.timeLimit = timeLimit
      self.isolated = isolated
      self.hangTimeout = hangTimeout
    }

    /// The configuration of a check that explores a body so.
    package var checkConfiguration: Configuration {
      Configuration(
        seed: seed, timeLimit: timeLimit, isolated: isolated, hangTimeout: hangTimeout,
        mode: .schedule(
          strategy: strategy, schedules: schedules, preemptionBound: preemptionBound))
    }
  }
}
