// Port of `SomeStringConcurrentNoBarrier` from post 002 (shared/seeds/002_c1c5065ce6ee0ab1.txt).
// Original: the concurrent queue without a barrier, lines 73-87.
// Bug (row 14): the setter runs `dispatch_sync` (line 84) on a CONCURRENT queue (line 73) with no
// barrier, so a write runs in parallel with reads and other writes: a read can see a torn or
// freed string, and two writes can release the same old value. The post says so itself (line 89)
// and fixes it with a barrier, which `SomeStringConcurrentBarrier` ports.
//
// Port notes: none; the accessors map one to one.

import Foundation

/// A string property whose getter and setter both run `sync` on a concurrent queue, no barrier.
///
/// ```swift
/// let box = SomeStringConcurrentNoBarrier()
/// box.someString = "first value stored on the heap"  // may run alongside other reads and writes
/// box.someString  // "first value stored on the heap" from one thread; anything under a race
/// ```
public final class SomeStringConcurrentNoBarrier: @unchecked Sendable {
  private var _someString: String?
  private let syncQueue = DispatchQueue(label: "www.nnn.com", attributes: .concurrent)

  /// Creates the object with no string and its own concurrent queue.
  public init() {}

  /// The string, nil until the first write; writes are not barriers (row 14's bug).
  public var someString: String? {
    get { syncQueue.sync { _someString } }
    // The original's `dispatch_sync`: on a concurrent queue it excludes nothing.
    set { syncQueue.sync { _someString = newValue } }
  }
}
