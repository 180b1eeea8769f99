/// A failing schedule: how it failed, its history and trace, and what the checker said.
struct ScheduleFailure<Model> {
  var kind: FailureReport.Kind
  var schedule: Int
  var history: History
  var trace: InterleavingTrace
  /// The diagnosis a race or deadlock names itself; nil for a result no order explains.
  var diagnosis: Diagnosis?
  var longestPrefix: [Int]
  var state: Model?
  var findings: [Finding]

  /// Whether `other` fails the same way, so that shrinking keeps the bug it started with.
  func isSameBug(as other: ScheduleFailure) -> Bool {
    kind == other.kind && diagnosis?.pattern == other.diagnosis?.pattern
  }
}
