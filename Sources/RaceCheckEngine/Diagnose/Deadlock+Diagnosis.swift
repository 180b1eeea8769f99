// A deadlock's name: the waits the scheduler recorded say which pattern it is.
extension Deadlock {
  /// The name the waits give the deadlock; read through ``Diagnoser/diagnose(_:)``, where every diagnosis is chosen.
  var diagnosis: Diagnosis {
    switch self {
    case .syncOnCurrentQueue(let thread, let queue):
      return Diagnosis(
        .syncOnCurrentQueue,
        evidence:
          "\(thread) called sync on '\(queue)' from inside a block running on '\(queue)': the new block waits for the running one, which waits for it"
      )
    case .lockOrderInversion(let waits):
      return Diagnosis(
        .lockOrderInversion,
        evidence: waits.map { "\($0.thread) holds \($0.holds) and waits for \($0.waitsFor)" }
          .joined(separator: "; ") + ": the threads take the locks in opposite orders")
    case .lostWakeup(let waiter, let condition, let signaller):
      return Diagnosis(
        .lostWakeup,
        evidence: "\(waiter) waits for a signal of \(condition), which \(signaller) signalled "
          + "while no thread waited: a condition keeps no signal, so that wakeup was lost, "
          + "and no thread is left to signal it again")
    case .blocked(let waiters):
      return Diagnosis(
        .unclassified,
        evidence: "deadlock: "
          + waiters.map { "\($0.thread) waits \($0.waitsFor)" }.joined(separator: "; "))
    }
  }
}
