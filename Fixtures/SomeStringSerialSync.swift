// Port of `SomeStringSerialSync` from post 002 (shared/seeds/002_c1c5065ce6ee0ab1.txt).
// Original: the serial-queue accessors of `someString`, lines 44-59.
// No bug (row 12): the getter and the setter both run `dispatch_sync` on one serial queue.

import Foundation

/// A string property whose getter and setter both run `sync` on one serial queue.
///
/// ```swift
/// let box = SomeStringSerialSync()
/// box.someString = "first value stored on the heap"
/// box.someString  // "first value stored on the heap"
/// ```
public final class SomeStringSerialSync: @unchecked Sendable {
  private var _someString: String?
  // `dispatch_queue_create("www.nnn.com", NULL)`: NULL means serial.
  private let syncQueue = DispatchQueue(label: "www.nnn.com")

  /// Creates the object with no string and its own serial queue.
  public init() {}

  /// The string, nil until the first write.
  public var someString: String? {
    get { syncQueue.sync { _someString } }
    set { syncQueue.sync { _someString = newValue } }
  }
}
