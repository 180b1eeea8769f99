// `LockedCounter`, the fix of `AtomicCounter` from post 003
// (shared/seeds/003_a0c80f8d14c390a6.txt).
// Original: none; the post explains the lost update (lines 29-45) but shows no fix.
// No bug (row 17): `increment()` reads and writes the count inside one critical section.

import Foundation

/// A counter whose `increment()` reads and writes the count under one lock.
///
/// ```swift
/// let counter = LockedCounter()
/// counter.increment()  // one locked read-modify-write
/// counter.count        // 1
/// ```
public final class LockedCounter: @unchecked Sendable {
  private var _count: Int = 0
  private let lock = NSLock()

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
