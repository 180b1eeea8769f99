// Port of `SomeStringLocked` from post 002 (shared/seeds/002_c1c5065ce6ee0ab1.txt).
// Original: the `NSLock` pattern, lines 16-24, applied to the `someString` accessors (lines 29-39).
// No bug (row 11): the getter and the setter each run between `[_lock lock]` and `[_lock unlock]`.
//
// Port notes: the post shows the locking pattern on a `sunchronizedMethod`; here it guards the
// `someString` accessors the post goes on to discuss.
// Schedule mode: the queue is a `SyncQueue`, the lock a `SyncLock` and the stored state a
// `SyncCell` (RaceCheckSync), the change a user makes so that racecheck can schedule the class;
// with no scheduler installed they forward to Dispatch and Foundation, so stress mode is unchanged.
// The stored-state wrapper yields the cell's storage (`_read`, `_modify`): a get/set pair would
// copy the buffer on every in-place mutation and change how the races fail under stress.

import Foundation
import RaceCheckSync

/// A string property whose getter and setter each hold an `NSLock`.
///
/// ```swift
/// let box = SomeStringLocked()
/// box.someString = "first value stored on the heap"
/// box.someString  // "first value stored on the heap"
/// ```
public final class SomeStringLocked: @unchecked Sendable {
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
    get {
      lock.lock()
      defer { lock.unlock() }
      return _someString
    }
    set {
      lock.lock()
      _someString = newValue
      lock.unlock()
    }
  }
}
