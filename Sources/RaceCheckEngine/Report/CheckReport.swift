/// What a check found: the verdict, what the search explored and, for a failure, the full evidence.
///
/// Its `description` is the report a test failure or the command line prints.
public struct CheckReport: Sendable, Codable {
  /// The spec's name.
  public var target: String
  /// The seed the run used.
  public var seed: UInt64
  /// The configuration the run used.
  public var configuration: Configuration
  /// What the search explored before it stopped.
  package var search: SearchSummary
  /// How long the whole check took: the search, and for a failure its shrinking, recount and diagnosis.
  ///
  /// ```swift
  /// let report = check(spec)
  /// print(report.elapsed)  // 1.25 seconds
  /// ```
  public var elapsed: Duration

  /// How long the whole check took, in seconds: ``elapsed`` as the number it was before reports gave a `Duration`.
  @available(*, deprecated, renamed: "elapsed", message: "use elapsed, a Duration")
  public var seconds: Double { elapsed.seconds }
  /// How the check ended.
  package var outcome: CheckOutcome
  /// The signal that stopped the check after it had found its failure, if one did: the failure is then shrunk only as far as it got.
  public var interruptedBy: Int32?
  /// The command that runs the check again, shown at the end of a failure report.
  public var replayCommand: String?
  /// The names of the spec's operations that return nothing, whose results reports leave out.
  package var voidOperations: Set<String> = []

  /// Creates a report of a check that has not explored anything yet.
  init(target: String, seed: UInt64, configuration: Configuration, outcome: CheckOutcome = .passed)
  {
    self.target = target
    self.seed = seed
    self.configuration = configuration
    self.search = SearchSummary(plannedScenarios: configuration.scenarios)
    self.elapsed = .zero
    self.outcome = outcome
  }

  /// `.fail` for a failure, `.inconclusive` for a search cut short or a check that could not run, else `.pass`.
  public var verdict: Verdict {
    switch outcome {
    case .passed: .pass
    case .failed: .fail
    case .inconclusive, .specError, .killedFromOutside, .internalFault: .inconclusive
    }
  }

  /// The failure found, or nil.
  public var failure: FailureReport? {
    if case .failed(let failure) = outcome { return failure }
    return nil
  }

  /// The spec's error, when the spec could not run.
  package var specError: SpecError? {
    if case .specError(let error) = outcome { return error }
    return nil
  }

  /// racecheck's own crash, when one ended the check.
  package var internalFault: InternalFault? {
    if case .internalFault(let fault) = outcome { return fault }
    return nil
  }

  /// A body's failing schedule, shrunk, which a replay runs alone instead of the search (`RACECHECK_SCHEDULE`, `--schedule`); nil for a spec's check.
  package var failingSchedule: ScheduleChoices? {
    guard configuration.exploresABody, let trace = failure?.trace else { return nil }
    return ScheduleChoices(trace.schedule)
  }

  /// Why the search was cut short, when it was.
  package var inconclusiveReason: InconclusiveReason? {
    if case .inconclusive(let reason) = outcome { return reason }
    return nil
  }

  /// The signal that stopped the check, whether before or after it found a failure.
  public var stoppingSignal: Int32? {
    if case .inconclusive(.interrupted(let signal)) = outcome { return signal }
    return interruptedBy
  }

  /// The number of scenarios run before stopping.
  public var scenarios: Int { search.scenarios }
  /// The number of invocations run before stopping, shrinking not included.
  public var invocations: Int { search.invocations }
}

/// A failure with its minimized scenario, evidence, diagnosis and the way to replay it.
public struct FailureReport: Sendable, Codable {
  /// How the subject failed.
  public enum Kind: String, Sendable, Codable {
    /// The results have no linearization under the model.
    case nonLinearizable = "non-linearizable"
    /// The code under test crashed the isolated child.
    case crash
    /// An invocation did not finish before its deadline.
    case hang
    /// The isolated child exited or stopped talking before it reported.
    case exit
    /// Two conflicting accesses to shared state that nothing ordered, as the scheduler or Thread Sanitizer saw them.
    case dataRace = "data-race"
    /// Schedule mode: no controlled thread could go on.
    case deadlock
    /// Schedule mode: a schedule ran past its step bound, as a spin loop or livelock does.
    case stepBound = "step-bound"
    /// An explored body: an expectation failed, or the body threw.
    case failedExpectation = "failed-expectation"
  }

  /// What the minimized failure showed.
  package var evidence: Evidence
  /// The named bug.
  public var diagnosis: Diagnosis
  /// The time from the start of the check until the first failing invocation, before shrinking.
  ///
  /// ```swift
  /// if case .failed(let failure) = report.outcome { print(failure.timeToFind) }
  /// ```
  public var timeToFind: Duration
  /// The time spent shrinking the failure, measuring its rate first included; nil when it was not shrunk.
  ///
  /// `--json` writes it, as ``timeToFind`` and ``CheckReport/elapsed``, in seconds:
  /// `secondsShrinking`, `secondsToFind` and `seconds`.
  public var timeToShrink: Duration?
  /// The scenario that failed first, before shrinking.
  package var original: Scenario
  /// The index of that scenario in the run.
  public var scenarioIndex: Int
  /// The smallest scenario found that still fails.
  package var scenario: Scenario
  /// The number of shrinking steps taken.
  public var shrinkSteps: Int
  /// Whether shrinking stopped at its time limit or an interrupt rather than at a minimal scenario.
  public var shrinkingCutShort: Bool
  /// How many invocations (schedules, in schedule mode) of `scenario` failed in the run that measured it.
  public var failedInvocations: Int
  /// How many invocations that run made.
  public var invocations: Int
  /// Where the repro file went.
  package var repro: ReproFile
  /// Schedule mode: the interleaving of the failing schedule, step by step.
  package var trace: InterleavingTrace?
  /// Schedule mode: the number of the failing schedule within its scenario.
  public var scheduleIndex: Int?
  /// Schedule mode: what the scheduler noticed besides the failure, such as a barrier on a serial queue.
  public var findings: [Diagnosis]?
  /// Schedule mode: the preemptions of the failing schedule first found, when the one reported was shrunk to fewer.
  public var preemptionsBeforeShrinking: Int? = nil

  /// How the subject failed.
  public var kind: Kind { evidence.kind }
  /// How it failed, as a report's first line says it after the target's name: `is not linearizable`.
  package var headline: String {
    if let crash { return crash.outcome }
    switch kind {
    case .dataRace: return "has a data race"
    case .deadlock: return "deadlocks"
    case .stepBound: return "does not finish: a schedule ran past its step bound"
    case .failedExpectation: return "fails an expectation"
    case .nonLinearizable, .crash, .hang, .exit: return "is not linearizable"
    }
  }
  /// A failing history of `scenario`; empty for a death, which has none.
  package var history: History { evidence.history ?? History(operations: []) }
  /// What was seen of a crash, a hang or an early exit; nil for a failure with a history.
  package var crash: CrashEvidence? { evidence.crash }
  /// Where the repro file was written, or nil if it could not be.
  public var reproPath: String? {
    if case .written(let path) = repro { return path }
    return nil
  }
}

/// Where a failure's repro file went.
package enum ReproFile: Sendable, Codable, Hashable {
  /// Written at this path.
  case written(String)
  /// Not written, for this reason.
  case notWritten(String)
}

/// The checker's account of why a history has no linearization.
package struct Explanation: Sendable, Hashable, Codable {
  /// The operations the checker placed, in order, as indexes into the history's operations.
  package var longestPrefix: [Int]
  /// The model's state after them, as history files write it (or described, for a custom model).
  package var state: String
  /// Each operation that could come next, with what it returned and what the model would have returned.
  package var candidates: [Candidate]

  /// An operation that could have been placed next but whose result the model does not allow.
  package struct Candidate: Sendable, Hashable, Codable {
    /// Its index in the history's operations.
    package var operation: Int
    /// What it returned.
    package var returned: Value
    /// What the model returns in that state.
    package var expected: Value
  }
}

/// An operation of the spec threw, or the spec cannot run: the spec, not the subject, is at fault.
package struct SpecError: Error, Sendable, Codable, CustomStringConvertible {
  /// What went wrong, in one line.
  package var message: String
  /// Everything recorded before the error.
  package var history: History?
  /// The scenario that was running.
  package var scenario: Scenario?

  package var description: String { message }
}
