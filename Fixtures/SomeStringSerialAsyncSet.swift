// Port of `SomeStringSerialAsyncSet` from post 002 (shared/seeds/002_c1c5065ce6ee0ab1.txt).
// Original: the getter of lines 47-53 with the asynchronous setter of lines 64-68.
// No bug (row 13): the getter runs `dispatch_sync` and the setter `dispatch_async` (line 65) on
// one serial queue, which runs blocks in the order they were submitted: a read submitted after
// a write's call returned queues behind that write and sees it.

import Foundation

/// A string property read `sync` and written `async` on one serial queue.
///
/// ```swift
/// let box = SomeStringSerialAsyncSet()
/// box.someString = "first value stored on the heap"  // returns before the write runs
/// box.someString  // "first value stored on the heap": the read queues behind the write
/// ```
public final class SomeStringSerialAsyncSet: @unchecked Sendable {
  private var _someString: String?
  // `dispatch_queue_create("www.nnn.com", NULL)`: NULL means serial.
  private let syncQueue = DispatchQueue(label: "www.nnn.com")

  /// Creates the object with no string and its own serial queue.
  public init() {}

  /// The string, nil until the first write; a write takes effect later, on the queue.
  public var someString: String? {
    get { syncQueue.sync { _someString } }
    set { syncQueue.async { self._someString = newValue } }
  }
}
