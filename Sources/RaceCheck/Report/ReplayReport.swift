/// What replaying a repro file found: how many invocations of its scenario failed again.
///
/// Stress interleavings are not deterministic, so a replay counts rather than promises.
public struct ReplayReport: Sendable {
  /// The repro that was replayed.
  public var repro: Repro
  /// The number of invocations run.
  public var invocations: Int
  /// The number of them whose results had no linearization.
  public var failures: Int
  /// A failing history, if any invocation failed.
  public var history: History?
  /// The diagnosis of that history, if any invocation failed.
  public var diagnosis: Diagnosis?
  /// What racecheck saw when the replay crashed, hung or exited its isolated child.
  public var crash: CrashEvidence?
  /// The interleaving the replay ran, for a repro of a failure found in schedule mode.
  public var trace: InterleavingTrace?
  /// Where the replay left the recorded schedule, such as "expected a scheduling point of thread 1 at step 7, …"; nil when it followed it exactly.
  public var divergence: String?
  /// An operation of the spec threw during the replay.
  public var specError: SpecError?
  /// The names of the spec's operations that return nothing, whose results reports leave out.
  var voidOperations: Set<String> = []
}
