import Synchronization

/// Lets `async` calls in together, except the exclusive ones, which go in alone: a readers–writer lock whose waiters suspend.
///
/// Waiters go in in the order they came, so a run of shared calls never starves an
/// exclusive one. Under the scheduler, a waiter resumes as a job it schedules; the
/// `Mutex` is held for a few instructions only and is never a scheduling point.
final class ExclusiveGate: Sendable {
  private struct State {
    var sharedInside = 0
    var exclusiveInside = false
    var waiting: [(exclusive: Bool, resume: CheckedContinuation<Void, Never>)] = []

    func admits(exclusive: Bool) -> Bool {
      exclusive ? sharedInside == 0 && !exclusiveInside : !exclusiveInside
    }

    mutating func enter(exclusive: Bool) {
      if exclusive { exclusiveInside = true } else { sharedInside += 1 }
    }
  }

  private let state = Mutex(State())

  /// Waits until the call may go in, and goes in.
  func enter(exclusive: Bool) async {
    await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
      let admitted = state.withLock { state in
        guard state.waiting.isEmpty, state.admits(exclusive: exclusive) else {
          state.waiting.append((exclusive, resume))
          return false
        }
        state.enter(exclusive: exclusive)
        return true
      }
      if admitted { resume.resume() }
    }
  }

  /// Leaves, and lets in the waiters that may go in now.
  func leave(exclusive: Bool) {
    let admitted = state.withLock { state in
      if exclusive { state.exclusiveInside = false } else { state.sharedInside -= 1 }
      var admitted: [CheckedContinuation<Void, Never>] = []
      while let next = state.waiting.first, state.admits(exclusive: next.exclusive) {
        state.waiting.removeFirst()
        state.enter(exclusive: next.exclusive)
        admitted.append(next.resume)
      }
      return admitted
    }
    for waiter in admitted { waiter.resume() }
  }
}
