/// Something racecheck can check and replay by name: a ``Spec`` with its types erased.
package protocol Checkable: Sendable {
  /// The name reports and the command line use.
  var name: String { get }

  /// Runs scenarios in this process until one fails or the budget is spent, and reports what was found.
  func check(_ configuration: Configuration) -> CheckReport

  /// A history of this checkable as a history file holds it: with its model's name and initial state.
  func recordedHistory(_ history: History) -> RecordedHistory
}

extension Checkable {
  /// Names the model after the checkable, for a model history files do not know.
  package func recordedHistory(_ history: History) -> RecordedHistory {
    RecordedHistory(history, model: name, initial: nil)
  }
}

/// A checkable whose checks can run in a worker child and be interrupted; every ``Spec`` is one.
package protocol SessionCheckable: Checkable {
  /// Checks, in a child started by `worker` unless it is nil, stopping early when `interruption` fires and telling `progress` how far it got.
  func check(
    _ configuration: Configuration, worker: WorkerCommand?, interruption: Interruption?,
    progress: ProgressSink?
  ) -> CheckReport

  /// Runs a repro file's scenario again, in a child started by `worker` unless it is nil, until its failure shows or `timeLimit` runs out.
  func replay(
    _ repro: Repro, timeLimit: Duration, worker: WorkerCommand?, interruption: Interruption?,
    progress: ProgressSink?
  ) throws(ReproError) -> ReplayReport
}
