/// What replaying a repro file found: whether its failure showed again, after how many invocations, and how often.
///
/// A schedule-mode repro runs its recorded schedule once, exactly. A stress repro runs its
/// scenario until the failure shows again or the time budget runs out: stress
/// interleavings are not deterministic, so a replay measures rather than promises.
package struct ReplayReport: Sendable {
  /// The repro that was replayed.
  package var repro: Repro
  /// How the replay ended.
  package var outcome: Outcome
  /// The invocations (schedules) run.
  package var invocations: Int
  /// How many of them failed.
  package var failures: Int
  /// The time budget of a stress replay.
  package var timeLimit: Duration
  /// How long the replay took.
  ///
  /// ```swift
  /// let replay = try spec.replay(repro)
  /// print("\(replay.failures) of \(replay.invocations) failed in \(replay.elapsed)")
  /// ```
  package var elapsed: Duration
  /// The evidence of the first failing invocation, when one failed.
  package var evidence: Evidence?
  /// The diagnosis of that failure.
  package var diagnosis: Diagnosis?
  /// The interleaving the replay ran, for a repro of a failure found in schedule mode.
  package var trace: InterleavingTrace?
  /// Where the replay left the recorded schedule, such as "expected a scheduling point of thread 1 at step 7, …"; nil when it followed it exactly.
  package var divergence: String?
  /// The names of the spec's operations that return nothing, whose results reports leave out.
  package var voidOperations: Set<String> = []

  /// How a replay ended.
  package enum Outcome: Sendable {
    /// The failure showed again.
    case reproduced
    /// It did not show within the budget.
    case notReproduced
    /// The replay was cut short by a signal, an outside kill or the budget before any invocation ran.
    case inconclusive(String)
    /// The spec is broken.
    case specError(SpecError)
  }

  /// A failing history, if an invocation failed with one.
  package var history: History? { evidence?.history }
  /// What racecheck saw when the replay crashed, hung or exited its isolated child.
  package var crash: CrashEvidence? { evidence?.crash }
  /// The spec's error, when the spec is broken.
  package var specError: SpecError? {
    if case .specError(let error) = outcome { return error }
    return nil
  }
  /// The share of invocations that failed, when any ran.
  package var failureRate: Double? {
    invocations == 0 ? nil : Double(failures) / Double(invocations)
  }
}
