// Port of `SomeStringSynchronized` from post 002 (shared/seeds/002_c1c5065ce6ee0ab1.txt).
// Original: the `@synchronized(self)` accessors of `someString`, lines 29-39.
// No bug (row 10): the getter and the setter each run under the object's one lock.
//
// Port notes: `@synchronized(self)` becomes one `NSRecursiveLock` per object, since
// `@synchronized` is recursive (and Swift on Linux has no `objc_sync_enter`). Each variant of the post's `someString` is a class of its own,
// named for its row.

import Foundation

/// A string property whose getter and setter each hold the object's lock: `@synchronized(self)`.
///
/// ```swift
/// let box = SomeStringSynchronized()
/// box.someString = "first value stored on the heap"
/// box.someString  // "first value stored on the heap"
/// ```
public final class SomeStringSynchronized: @unchecked Sendable {
  private var _someString: String?
  private let lock = NSRecursiveLock()

  /// Creates the object with no string.
  public init() {}

  /// The string, nil until the first write.
  public var someString: String? {
    get { lock.withLock { _someString } }
    set { lock.withLock { _someString = newValue } }
  }
}
