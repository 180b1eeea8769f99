// Port of `SomeStringConcurrentBarrier` from post 002 (shared/seeds/002_c1c5065ce6ee0ab1.txt).
// Original: the concurrent queue with a barrier setter, lines 97-110.
// No bug (row 15): the getter runs `dispatch_sync` on a concurrent queue, and the setter
// `dispatch_barrier_async` (line 108), which runs alone.

import Foundation

/// A string property read `sync` and written with an asynchronous barrier on a concurrent queue.
///
/// ```swift
/// let box = SomeStringConcurrentBarrier()
/// box.someString = "first value stored on the heap"  // returns before the write runs
/// box.someString  // "first value stored on the heap": the read waits for the barrier
/// ```
public final class SomeStringConcurrentBarrier: @unchecked Sendable {
  private var _someString: String?
  private let syncQueue = DispatchQueue(label: "www.nnn.com", attributes: .concurrent)

  /// Creates the object with no string and its own concurrent queue.
  public init() {}

  /// The string, nil until the first write; a write takes effect later, on the queue.
  public var someString: String? {
    get { syncQueue.sync { _someString } }
    set { syncQueue.async(flags: .barrier) { self._someString = newValue } }
  }
}
