/// A spec, or a ``Checkable`` of your own, that the command line can run by name, with the verdict it is expected to reach, if known.
///
/// ```swift
/// let targets = [Target(cacheSpec, summary: "my locked cache"), Target(SafeArrayCheck(largest: 4))]
/// CommandLineDriver.main(targets: targets)
/// ```
public struct Target: Sendable {
  /// What the target checks: a ``Spec``, or a type of your own that gives one.
  package var checkable: any Checkable
  /// A line for `racecheck list`.
  public var summary: String
  /// The verdict `racecheck demo` expects, or nil when none is known.
  public var expectation: Expectation?
  /// The verdict `racecheck demo --mode schedule` expects, where schedule mode names more than ``expectation``; nil to use it.
  public var scheduleExpectation: Expectation?
  /// The verdict stress mode expects in a `--sanitize=thread` build, where Thread Sanitizer names more than ``expectation``; nil to use it.
  public var sanitizerExpectation: Expectation?
  /// The budget `racecheck demo` gives this target instead of the default one, for a bug that shows rarely.
  public var demoConfiguration: Configuration?

  /// The target's name: its spec's, which its reports and repro files carry.
  public var name: String { checkable.name }

  /// Whether the target is a body to explore (`Target(exploring:)`), which runs only in schedule mode.
  public var isExploration: Bool { Self.isExploration(checkable) }

  private static func isExploration(_ checkable: some Checkable) -> Bool {
    checkable.spec.isExploration
  }

  /// The verdict stress mode expects in this build: ``sanitizerExpectation`` under Thread Sanitizer, where set.
  public var stressExpectation: Expectation? {
    SanitizerRaceLog.isActive ? sanitizerExpectation ?? expectation : expectation
  }

  /// The verdict schedule mode expects: ``scheduleExpectation``, else ``expectation``.
  public var scheduleModeExpectation: Expectation? { scheduleExpectation ?? expectation }

  /// Checks the target, in a child started by `worker` when the configuration is isolated and `worker` is not nil, else in this process.
  package func check(
    _ configuration: Configuration, worker: WorkerCommand?, interruption: Interruption? = nil,
    progress: ProgressSink? = nil
  ) -> CheckReport {
    checkable.check(
      configuration, worker: worker, interruption: interruption, progress: progress)
  }

  /// Replays `repro`, in a child started by `worker` unless it is nil, so that a crash or a hang of any replay is reported.
  package func replay(
    _ repro: Repro, timeLimit: Duration = .seconds(30), worker: WorkerCommand?,
    interruption: Interruption? = nil, progress: ProgressSink? = nil
  ) throws(ReproError) -> ReplayReport {
    try checkable.replay(
      repro, timeLimit: timeLimit, worker: worker, interruption: interruption, progress: progress)
  }

  /// Creates a target that checks `checkable`, with the summary and expectation `list` and `demo` show.
  public init(
    _ checkable: some Checkable, summary: String = "", expectation: Expectation? = nil,
    demoConfiguration: Configuration? = nil
  ) {
    self.checkable = checkable
    self.summary = summary
    self.expectation = expectation
    self.demoConfiguration = demoConfiguration
  }
}

/// The verdict a target must reach, and the bug it must name when it fails.
public struct Expectation: Hashable, Sendable {
  /// Whether the target passes or fails.
  public var verdict: Verdict
  /// The pattern a failure must be diagnosed as; nil for a pass.
  public var diagnosis: BugPattern?
  /// The target's other bugs, which a minimized failure may show instead of ``diagnosis``.
  public var otherBugs: Set<BugPattern> = []

  /// The target must pass.
  public static let pass = Expectation(verdict: .pass, diagnosis: nil)

  /// The check must claim neither a pass nor a failure: the mode cannot see what the target's correctness rests on.
  public static let inconclusive = Expectation(verdict: .inconclusive, diagnosis: nil)

  /// The target must fail, whatever the diagnosis: for a ``WorkloadTarget``, whose history must be found not linearizable.
  ///
  /// A spec's target names the bug it must be diagnosed with, with ``fail(_:or:)``: the
  /// demo's judgement of a row counts a failure named otherwise as wrong.
  public static let fail = Expectation(verdict: .fail, diagnosis: nil)

  /// The target must fail with `diagnosis`, or with one of `otherBugs` when it has several.
  public static func fail(_ diagnosis: BugPattern, or otherBugs: Set<BugPattern> = [])
    -> Expectation
  {
    Expectation(verdict: .fail, diagnosis: diagnosis, otherBugs: otherBugs)
  }

  /// Whether `report` reached this verdict and a diagnosis this expectation accepts.
  public func isMet(by report: CheckReport) -> Bool {
    guard report.verdict == verdict else { return false }
    if verdict == .fail, diagnosis == nil, otherBugs.isEmpty { return true }
    let found = report.failure?.diagnosis.pattern
    return found == diagnosis || found.map(otherBugs.contains) == true
  }
}

extension Expectation {
  /// Whether a workload's history reached this verdict: `pass` when linearizable, `fail` when not, `inconclusive` when the check could not decide.
  public func isMet(by report: WorkloadReport) -> Bool {
    switch report.verdict.verdict {
    case .linearizable: verdict == .pass
    case .notLinearizable: verdict == .fail
    case .unknown: verdict == .inconclusive
    }
  }
}

/// What a check concluded.
public enum Verdict: String, Hashable, Sendable, Codable {
  /// The whole budget was explored and nothing failed.
  case pass
  /// A failure was found.
  case fail
  /// The search was cut short, or could not run, so nothing is claimed.
  case inconclusive
}
