extension Configuration {
  /// How a check runs each scenario: many times on real threads, or once per schedule under the controlled scheduler.
  ///
  /// ```swift
  /// check(spec, configuration: Configuration(mode: .schedule(strategy: .dpor, schedules: 200)))
  /// ```
  public enum Mode: Hashable, Sendable {
    /// Stress mode: each scenario runs on real threads, again and again, until `invocations` of them overlapped.
    case stress
    /// Schedule mode: each scenario runs under the controlled scheduler, once per schedule the settings choose.
    case schedule(ScheduleSettings)

    /// Schedule mode with its settings under the names `explore` gives them; the defaults are a random walk of 50 schedules per scenario.
    ///
    /// - Parameters:
    ///   - strategy: How each schedule is chosen.
    ///   - schedules: The most schedules per scenario.
    ///   - preemptionBound: The most preemptions in one schedule of an `.exhaustive` search.
    ///   - depth: PCT's bug depth.
    /// - Returns: Schedule mode with these settings.
    public static func schedule(
      strategy: ScheduleSettings.Strategy = .random, schedules: Int = 50, preemptionBound: Int = 2,
      depth: Int = 3
    ) -> Mode {
      .schedule(
        ScheduleSettings(
          strategy: strategy, depth: depth, preemptionBound: preemptionBound, schedules: schedules))
    }

    /// Schedule mode's settings, or nil in stress mode.
    public var scheduleSettings: ScheduleSettings? {
      if case .schedule(let settings) = self { settings } else { nil }
    }
  }
}

extension Configuration {
  /// Creates a configuration whose schedule mode is an optional; use `Configuration(…, mode:)`.
  @available(*, deprecated, message: "use mode: .stress or mode: .schedule(…)")
  @_disfavoredOverload
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
    schedule: ScheduleSettings?
  ) {
    self.init(
      seed: seed, shape: shape, scenarios: scenarios, invocations: invocations,
      firstScenario: firstScenario, timeLimit: timeLimit, minimizes: minimizes,
      shrinkTimeLimit: shrinkTimeLimit, reproDirectory: reproDirectory, isolated: isolated,
      hangTimeout: hangTimeout, mode: schedule.map { .schedule($0) } ?? .stress)
  }

  /// Schedule mode's settings, or nil for stress mode; use ``mode``.
  @available(*, deprecated, message: "use mode: .schedule(…) or .stress, and mode.scheduleSettings")
  public var schedule: ScheduleSettings? {
    get { scheduleSettings }
    set { scheduleSettings = newValue }
  }
}
