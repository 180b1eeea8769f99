// Port of `SomeStringSynchronized` from post 002 (shared/seeds/002_c1c5065ce6ee0ab1.txt).
// Original: the `@synchronized(self)` accessors of `someString`, lines 29-39.
// No bug (row 10): the getter and the setter each run under the object's one lock.
//
// Port notes: `@synchronized(self)` becomes one `NSRecursiveLock` per object, since
// `@synchronized` is recursive; schedule mode's `SyncLock` is not, which is safe here because
// nothing re-enters it. Each variant of the post's `someString` is a class of its own,
// named for its row.
// Schedule mode: the queue is a `SyncQueue`, the lock a `SyncLock` and the stored state a
// `SyncCell` (RaceCheckSync), the change a user makes so that racecheck can schedule the class;
// with no scheduler installed they forward to Dispatch and Foundation, so stress mode is unchanged.
// The stored-state wrapper yields the cell's storage (`_read`, `_modify`): a get/set pair would
// copy the buffer on every in-place mutation and change how the races fail under stress.

import Foundation
import RaceCheckSync

/// A string property whose getter and setter each hold the object's lock: `@synchronized(self)`.
///
/// ```swift
/// let box = SomeStringSynchronized()
/// box.someString = "first value stored on the heap"
/// box.someString  // "first value stored on the heap"
/// ```
public final class SomeStringSynchronized: @unchecked Sendable {
  private let _someStringCell = SyncCell<String?>(nil, name: "_someString")
  private var _someString: String? {
    _read { yield _someStringCell.value }
    set { _someStringCell.value = newValue }
    _modify { yield &_someStringCell.value }
  }
  private let lock = SyncLock()

  /// Creates the object with no string.
  public init() {}

  /// The string, nil until the first write.
  public var someString: String? {
    get { lock.withLock { _someString } }
    set { lock.withLock { _someString = newValue } }
  }
}
