import RaceCheckSync

/// Two conflicting accesses to a cell that no primitive ordered: the scheduler's or Thread Sanitizer's account.
///
/// Both modes record what guarded each access; `Diagnose/DataRace+Diagnosis.swift` names the
/// race from it, so that a race gets the same name whoever saw it.
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
}

/// Something the scheduler noticed that is not a failure on its own, such as a barrier on a serial queue.
struct Finding: Sendable, Hashable, Codable {
  var pattern: BugPattern
  var evidence: String
}
