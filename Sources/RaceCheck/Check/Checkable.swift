/// Something racecheck can check and replay by name: a ``Spec`` with its types erased.
public protocol Checkable: Sendable {
  /// The name reports and the command line use.
  var name: String { get }

  /// Runs scenarios until one fails or the budget is spent, and reports what was found.
  func check(_ configuration: Configuration) -> CheckReport

  /// Runs a recorded scenario again and says how many invocations fail.
  func replay(_ repro: Repro, invocations: Int) throws(ReproError) -> ReplayReport

  /// A history of this checkable as a history file holds it: with its model's name and initial state.
  func recordedHistory(_ history: History) -> RecordedHistory
}

extension Checkable {
  /// Names the model after the checkable, for a model history files do not know.
  public func recordedHistory(_ history: History) -> RecordedHistory {
    RecordedHistory(history, model: name, initial: nil)
  }
}
