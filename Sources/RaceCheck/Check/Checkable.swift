/// Something racecheck can check and replay by name: a ``Spec`` with its types erased.
public protocol Checkable: Sendable {
  /// The name reports and the command line use.
  var name: String { get }

  /// Runs scenarios until one fails or the budget is spent, and reports what was found.
  func check(_ configuration: Configuration) -> CheckReport

  /// Runs a recorded scenario again and says how many invocations fail.
  func replay(_ repro: Repro, invocations: Int) throws(ReproError) -> ReplayReport
}
