// Port of `AtomicCounter` from post 003 (shared/seeds/003_a0c80f8d14c390a6.txt).
// Original: the `competition` example, lines 29-43.
// Bug (row 16): `self.count = self.count + 1` (line 34) reads through the atomic getter and writes
// through the atomic setter: each access is atomic, the increment made of them is not, so two
// threads that read the same value both write it plus one and an increment is lost.
//
// Port notes: the post's `count` is an `atomic` property; its getter and setter each take a
// private `NSLock`, separately, as the synthesized accessors each take the property's lock.
// `increment()` is the loop body of `competition`.

import Foundation

/// A counter with an atomic `count` property whose `increment()` is `count = count + 1`.
///
/// ```swift
/// let counter = AtomicCounter()
/// counter.increment()  // a locked read, then a locked write
/// counter.count        // 1
/// ```
public final class AtomicCounter: @unchecked Sendable {
  private var _count: Int = 0
  private let lock = NSLock()

  /// Creates a counter at zero.
  public init() {}

  /// The count; reading it and setting it are each atomic.
  public var count: Int {
    get { lock.withLock { _count } }
    set { lock.withLock { _count = newValue } }
  }

  /// Adds one through the getter and then the setter, the way `competition` does (row 16's bug).
  public func increment() {
    count = count + 1
  }
}
