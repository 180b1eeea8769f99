/// What a check found: the verdict, the budget spent and, for a failure, the full evidence.
///
/// Its `description` is the report a test failure or the command line prints.
public struct CheckReport: Sendable, Codable {
  /// The spec's name.
  public var target: String
  /// The seed the run used.
  public var seed: UInt64
  /// The configuration the run used.
  public var configuration: Configuration
  /// The number of scenarios run before stopping.
  public var scenarios: Int
  /// The number of invocations run before stopping, shrinking not included.
  public var invocations: Int
  /// Wall-clock seconds, shrinking included.
  public var seconds: Double
  /// The failure found, or nil.
  public var failure: FailureReport?
  /// An operation of the spec threw, which ends the check without a verdict on the subject.
  public var specError: SpecError?
  /// The command that runs the check again, shown at the end of a failure report.
  public var replayCommand: String?
  /// The names of the spec's operations that return nothing, whose results reports leave out.
  var voidOperations: Set<String> = []

  /// `.fail` when a failure was found, else `.pass`.
  public var verdict: Verdict { failure == nil ? .pass : .fail }
}

/// A failure with its minimized scenario, history, diagnosis and the way to replay it.
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
    /// Schedule mode: two conflicting accesses to a shared cell that no primitive ordered.
    case dataRace = "data-race"
    /// Schedule mode: no controlled thread could go on.
    case deadlock
    /// Schedule mode: a schedule ran past its step bound, as a spin loop or livelock does.
    case stepBound = "step-bound"
  }

  /// How the subject failed.
  public var kind: Kind
  /// Seconds from the start of the check until the first failing invocation, before shrinking.
  public var secondsToFind: Double
  /// The scenario that failed first, before shrinking.
  public var original: Scenario
  /// The index of that scenario in the run.
  public var scenarioIndex: Int
  /// The smallest scenario found that still fails.
  public var scenario: Scenario
  /// A failing history of `scenario`.
  public var history: History
  /// Why no order works: the longest prefix the checker could place and what the model would have returned next.
  public var explanation: Explanation
  /// The named bug.
  public var diagnosis: Diagnosis
  /// How many of the last run's invocations of `scenario` failed.
  public var failedInvocations: Int
  /// How many invocations of `scenario` that run made.
  public var invocations: Int
  /// The number of shrinking steps taken.
  public var shrinkSteps: Int
  /// What was seen of a crash, hang or early exit; nil for a result no order explains.
  public var crash: CrashEvidence?
  /// Where the repro file was written, or nil if it could not be.
  public var reproPath: String?
  /// Why the repro file could not be written, when it could not.
  public var reproError: String?
  /// Schedule mode: the interleaving of the failing schedule, step by step.
  public var trace: InterleavingTrace?
  /// Schedule mode: the number of the failing schedule within its scenario.
  public var scheduleIndex: Int?
  /// Schedule mode: what the scheduler noticed besides the failure, such as a barrier on a serial queue.
  public var findings: [Diagnosis]?
}

/// The checker's account of why a history has no linearization.
public struct Explanation: Sendable, Hashable, Codable {
  /// The operations the checker placed, in order, as indexes into the history's entries.
  public var longestPrefix: [Int]
  /// The model's state after them, as history files write it (or described, for a custom model).
  public var state: String
  /// Each operation that could come next, with what it returned and what the model would have returned.
  public var candidates: [Candidate]

  /// An operation that could have been placed next but whose result the model does not allow.
  public struct Candidate: Sendable, Hashable, Codable {
    /// Its index in the history's entries.
    public var entry: Int
    /// What it returned.
    public var returned: Value
    /// What the model returns in that state.
    public var expected: Value
  }
}

/// An operation of the spec threw: the spec, not the subject, is at fault.
public struct SpecError: Error, Sendable, Codable, CustomStringConvertible {
  /// What went wrong, in one line.
  public var message: String
  /// Everything recorded before the error.
  public var history: History?
  /// The scenario that was running.
  public var scenario: Scenario?

  public var description: String { message }
}
