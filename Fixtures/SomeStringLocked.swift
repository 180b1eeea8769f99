// Port of `SomeStringLocked` from post 002 (shared/seeds/002_c1c5065ce6ee0ab1.txt).
// Original: the `NSLock` pattern, lines 16-24, applied to the `someString` accessors (lines 29-39).
// No bug (row 11): the getter and the setter each run between `[_lock lock]` and `[_lock unlock]`.
//
// Port notes: the post shows the locking pattern on a `sunchronizedMethod`; here it guards the
// `someString` accessors the post goes on to discuss.

import Foundation

/// A string property whose getter and setter each hold an `NSLock`.
///
/// ```swift
/// let box = SomeStringLocked()
/// box.someString = "first value stored on the heap"
/// box.someString  // "first value stored on the heap"
/// ```
public final class SomeStringLocked: @unchecked Sendable {
  private var _someString: String?
  private let lock = NSLock()

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
