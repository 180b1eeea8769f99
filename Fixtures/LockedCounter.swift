// `LockedCounter`, the fix of `AtomicCounter` from post 003
// (shared/seeds/003_a0c80f8d14c390a6.txt).
// Original: none; the post explains the lost update (lines 29-45) but shows no fix.
// No bug (row 17): `increment()` reads and writes the count inside one critical section.
// Schedule mode: the queue is a `SyncQueue`, the lock a `SyncLock` and the stored state a
// `SyncCell` (RaceCheckSync), the change a user makes so that racecheck can schedule the class;
// with no scheduler installed they forward to Dispatch and Foundation, so stress mode is unchanged.
// The stored-state wrapper yields the cell's storage (`_read`, `_modify`): a get/set pair would
// copy the buffer on every in-place mutation and change how the races fail under stress.

import Foundation
import RaceCheckSync

/// A counter whose `increment()` reads and writes the count under one lock.
///
/// ```swift
/// let counter = LockedCounter()
/// counter.increment()  // one locked read-modify-write
/// counter.count        // 1
/// ```
public final class LockedCounter: @unchecked Sendable {
  private let _countCell = SyncCell<Int>(0, name: "_count")
  private var _count: Int {
    _read { yield _countCell.value }
    set { _countCell.value = newValue }
    _modify { yield &_countCell.value }
  }
  private let lock = SyncLock()

  /// Creates a counter at zero.
  public init() {}

  /// The count; reading it and setting it are each atomic.
  public var count: Int {
    get { lock.withLock { _count } }
    set { lock.withLock { _count = newValue } }
  }

  /// Adds one atomically.
  public func increment() {
    lock.withLock { _count += 1 }
  }
}
