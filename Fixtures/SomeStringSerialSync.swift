// Port of `SomeStringSerialSync` from post 002 (shared/seeds/002_c1c5065ce6ee0ab1.txt).
// Original: the serial-queue accessors of `someString`, lines 44-59.
// No bug (row 12): the getter and the setter both run `dispatch_sync` on one serial queue.
// Schedule mode: the queue is a `SyncQueue`, the lock a `SyncLock` and the stored state a
// `SyncCell` (RaceCheckSync), the change a user makes so that racecheck can schedule the class;
// with no scheduler installed they forward to Dispatch and Foundation, so stress mode is unchanged.
// The stored-state wrapper yields the cell's storage (`_read`, `_modify`): a get/set pair would
// copy the buffer on every in-place mutation and change how the races fail under stress.

import Foundation
import RaceCheckSync

/// A string property whose getter and setter both run `sync` on one serial queue.
///
/// ```swift
/// let box = SomeStringSerialSync()
/// box.someString = "first value stored on the heap"
/// box.someString  // "first value stored on the heap"
/// ```
public final class SomeStringSerialSync: @unchecked Sendable {
  private let _someStringCell = SyncCell<String?>(nil, name: "_someString")
  private var _someString: String? {
    _read { yield _someStringCell.value }
    set { _someStringCell.value = newValue }
    _modify { yield &_someStringCell.value }
  }
  // `dispatch_queue_create("www.nnn.com", NULL)`: NULL means serial.
  private let syncQueue = SyncQueue(label: "www.nnn.com")

  /// Creates the object with no string and its own serial queue.
  public init() {}

  /// The string, nil until the first write.
  public var someString: String? {
    get { syncQueue.sync { _someString } }
    set { syncQueue.sync { _someString = newValue } }
  }
}
