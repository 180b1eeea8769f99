/// How the schedule mode explores interleavings: the strategy, its settings and the budget per scenario.
///
/// ```swift
/// let settings = ScheduleSettings(strategy: .pct, depth: 2)
/// check(spec, configuration: Configuration(seed: 7, scenarios: 20, mode: .schedule(settings)))
/// ```
public struct ScheduleSettings: Hashable, Sendable, Codable {
  /// How the next thread is chosen at each scheduling point.
  public enum Strategy: String, Hashable, Sendable, Codable, CaseIterable {
    /// Uniformly at random among the threads that can run, from a seeded generator.
    case random
    /// Probabilistic concurrency testing: random priorities with `depth - 1` priority change points.
    case pct
    /// Every schedule with at most `preemptionBound` preemptions, depth first.
    case exhaustive
    /// One schedule of every class of equivalent interleavings, with no preemption bound (dynamic partial-order reduction): a scenario whose classes all ran within the budget is proved.
    case dpor
  }

  /// How the next thread is chosen.
  public var strategy: Strategy
  /// PCT's bug depth: the number of priority change points plus one.
  public var depth: Int
  /// The most preemptions an exhaustive search allows in one schedule.
  public var preemptionBound: Int
  /// The schedules tried per scenario, at most: a random or PCT walk gives scenario *i* `10 × (i + 1)` up to this, and an exhaustive search may stop earlier.
  public var schedules: Int
  /// The most scheduling points in one schedule; a schedule that needs more is cut off as a livelock.
  public var maxSteps: Int
  /// A fault racecheck's own tests make the scheduler commit (``InjectedFault``); nil otherwise.
  package var injectedFault: InjectedFault? = nil
  /// A schedule to run exactly, once, instead of the strategy's search: a body's failing schedule, from `RACECHECK_SCHEDULE`.
  ///
  /// It travels in the settings, as the strategy does, so that an isolated child replays it too.
  package var replayedSchedule: ScheduleChoices? = nil

  /// Creates settings; the defaults are a random walk of 50 schedules per scenario.
  public init(
    strategy: Strategy = .random, depth: Int = 3, preemptionBound: Int = 2,
    schedules: Int = 50, maxSteps: Int = 10_000
  ) {
    self.strategy = strategy
    self.depth = depth
    self.preemptionBound = preemptionBound
    self.schedules = schedules
    self.maxSteps = maxSteps
  }

  /// The schedules a search gives scenario `index`: a random or PCT walk gives its first scenarios fewer.
  ///
  /// Scenario `i` gets `10 × (i + 1)` schedules, up to ``schedules``. A scenario
  /// that can fail usually does within its first ten schedules, while the first scenarios,
  /// drawn narrow, often cannot fail at all: the search reaches four scenarios in the
  /// schedules the plain budget gives two. An exhaustive search gets its whole budget every
  /// time, which is what its bound promises.
  package func schedules(forScenario index: Int) -> Int {
    guard strategy == .random || strategy == .pct else { return schedules }
    return min(schedules, Self.firstScenarioSchedules * (index + 1))
  }

  /// The settings a body to explore gets when none are given: a random walk of 1,000 schedules.
  ///
  /// A body is one scenario, so it gets the budget a spec spreads over twenty.
  public static let exploration = ScheduleSettings(schedules: 1_000)

  /// The schedules the first scenario of a random or PCT search gets; each next one gets as many more.
  package static let firstScenarioSchedules = 10

  /// The keys of the settings in a repro file: `schedules` keeps the name files have always used.
  private enum CodingKeys: String, CodingKey {
    case strategy, depth, preemptionBound, maxSteps, injectedFault, replayedSchedule
    case schedules = "schedulesPerScenario"
  }

  /// The strategy and the settings that matter to it, as reports print them.
  package var summary: String {
    if replayedSchedule != nil { return "one replayed schedule" }
    switch strategy {
    case .random: return "random walk"
    case .pct: return "PCT depth \(depth)"
    case .exhaustive: return "exhaustive, preemption bound \(preemptionBound)"
    case .dpor: return "partial-order reduction"
    }
  }
}

extension ScheduleSettings {
  /// Creates settings with the old name of the schedules per scenario; use `ScheduleSettings(…, schedules:)`.
  @available(*, deprecated, renamed: "init(strategy:depth:preemptionBound:schedules:maxSteps:)")
  @_disfavoredOverload
  public init(
    strategy: Strategy = .random, depth: Int = 3, preemptionBound: Int = 2,
    schedulesPerScenario: Int, maxSteps: Int = 10_000
  ) {
    self.init(
      strategy: strategy, depth: depth, preemptionBound: preemptionBound,
      schedules: schedulesPerScenario, maxSteps: maxSteps)
  }

  /// The schedules tried per scenario, at most; use ``schedules``.
  @available(*, deprecated, renamed: "schedules")
  public var schedulesPerScenario: Int {
    get { schedules }
    set { schedules = newValue }
  }
}
