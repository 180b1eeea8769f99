extension ControlledScheduler {
  /// The deadlock of a schedule in which no unfinished thread can go on, named where what the threads wait for proves how it came about.
  ///
  /// Threads that each hold a lock the next one waits for, round to the first, took the
  /// locks in opposite orders; a thread that waits for a condition a thread signalled
  /// while no one waited lost that wakeup. Anything else is a deadlock unnamed.
  func deadlockOfBlockedThreads() -> Deadlock {
    let blocked = threads.filter { !$0.finished }
    if let cycle = lockCycle(among: blocked) { return .lockOrderInversion(cycle) }
    for thread in blocked {
      if case .signal(let condition, _, timed: false) = thread.wait,
        let signaller = condition.lostSignalFrom
      {
        return .lostWakeup(waiter: thread.name, condition: condition.name, signaller: signaller)
      }
    }
    return .blocked(blocked.map(describeWait))
  }

  /// Whether a controlled thread waits for a signal of `state` now.
  func isAnyThreadWaiting(for state: SignalState) -> Bool {
    threads.contains { thread in
      if case .signal(let waited, _, _) = thread.wait, !thread.finished { return waited === state }
      return false
    }
  }

  /// A cycle of threads each waiting for a lock the next one holds, or nil when there is none.
  private func lockCycle(among blocked: [ControlledThread]) -> [Deadlock.LockWait]? {
    // Each blocked thread waits for at most one lock, so the waits form a functional graph.
    func waitedLock(of thread: ControlledThread) -> (lock: LockState, owner: Int)? {
      guard case .lock(let lock) = thread.wait, let owner = lock.owner, owner != thread.id
      else { return nil }
      return (lock, owner)
    }
    for start in blocked {
      var path: [Int] = []
      var current = start.id
      while let (_, owner) = waitedLock(of: threads[current]), !path.contains(current) {
        path.append(current)
        current = owner
      }
      guard let loopStart = path.firstIndex(of: current) else { continue }
      let loop = Array(path[loopStart...])
      return loop.indices.map { position in
        let thread = threads[loop[position]]
        let held = threads[loop[(position + loop.count - 1) % loop.count]]
        return Deadlock.LockWait(
          thread: thread.name, holds: waitedLock(of: held)?.lock.name ?? "a lock",
          waitsFor: waitedLock(of: thread)?.lock.name ?? "a lock")
      }
    }
    return nil
  }
}
