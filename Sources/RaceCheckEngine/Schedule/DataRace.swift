import RaceCheckSync

/// Two conflicting accesses to a cell that no primitive ordered: the scheduler's or Thread Sanitizer's account.
///
/// Both modes name a race here, from what guarded each access, so that a race gets the
/// same name whoever saw it.
struct DataRace {
  /// One of the two accesses: how it touched the cell and what guarded it.
  struct Access {
    var kind: SyncAccess
    var context: AccessContext
  }

  /// The cell's name.
  var cell: String
  /// The earlier access.
  var first: Access
  /// The later one.
  var second: Access

  /// The specific name the two accesses' guards give the race, with the sentence that says why.
  ///
  /// Read through ``Diagnoser/diagnose(_:)``, where every diagnosis is chosen.
  var diagnosis: Diagnosis {
    let a = first.context
    let b = second.context
    let what =
      "\(b.thread)'s \(second.kind.rawValue) of \(cell) (\(b.description)) and \(a.thread)'s \(first.kind.rawValue) "
      + "(\(a.description)) are ordered by no primitive"
    if let block = (a.blocks + b.blocks).first(where: { $0.isGlobal && $0.flaggedBarrier }) {
      return Diagnosis(
        .barrierOnGlobalQueue,
        evidence:
          "\(what): the barrier on the global queue '\(block.name)' is an ordinary block, so it excludes nothing"
      )
    }
    if let shared = a.blocks.first(where: { block in b.blocks.contains { $0.queue == block.queue } }
    ),
      shared.isConcurrent, !shared.isGlobal
    {
      return Diagnosis(
        .concurrentQueueWithoutBarrier,
        evidence:
          "\(what): both run inside the concurrent queue '\(shared.name)' at once, and a write there needs a barrier"
      )
    }
    for (outside, inside) in [(a, b), (b, a)] where outside.isUnsynchronized {
      if let left = outside.queuesLeft,
        let block = inside.blocks.first(where: { left.contains($0.queue) })
      {
        return Diagnosis(
          .escapedLiveStorage,
          evidence:
            "\(what): \(outside.thread)'s call reached the state through the queue '\(block.name)' and used it after "
            + "leaving the queue, while a block on the queue changed it"
        )
      }
    }
    if a.isUnsynchronized || b.isUnsynchronized {
      if (a.isUnsynchronized && a.synchronizedEarlier == true)
        || (b.isUnsynchronized && b.synchronizedEarlier == true)
      {
        return Diagnosis(
          .atomicReferenceNonAtomicContents,
          evidence:
            "\(what): the reference was read under a lock, then the state behind it was used after the lock was released"
        )
      }
      // Thread Sanitizer cannot say what the earlier access's call did before it: only a call
      // known to have synchronized in no way at all shows state with no synchronization.
      if [a, b].allSatisfy({ !$0.isUnsynchronized || $0.neverSynchronized }) {
        return Diagnosis(
          .unsynchronizedAccess, evidence: "\(what): the state has no synchronization at all")
      }
      return Diagnosis(
        .dataRace,
        evidence:
          "\(what): what the unguarded access's call did before it is not known, so no more specific name is proven"
      )
    }
    return Diagnosis(.dataRace, evidence: "\(what): they are guarded by different primitives")
  }
}

/// A schedule in which no thread could go on.
enum Deadlock: Sendable, Hashable {
  /// A blocked thread and what it waits for.
  struct Waiter: Sendable, Hashable {
    var thread: String
    var waitsFor: String
  }

  /// A thread ran `sync` onto the queue it was already running a block of.
  case syncOnCurrentQueue(thread: String, queue: String)
  /// A thread that holds one lock and waits for another, in a cycle of such threads.
  struct LockWait: Sendable, Hashable {
    var thread: String
    var holds: String
    var waitsFor: String
  }

  /// Every unfinished thread waits.
  case blocked([Waiter])
  /// Threads each hold a lock the next one waits for, round to the first: they took the locks in opposite orders.
  case lockOrderInversion([LockWait])
  /// A thread waits for a condition that another thread signalled while no thread waited, and nothing will signal it again.
  case lostWakeup(waiter: String, condition: String, signaller: String)

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

/// Something the scheduler noticed that is not a failure on its own, such as a barrier on a serial queue.
struct Finding: Sendable, Hashable, Codable {
  var pattern: BugPattern
  var evidence: String
}
