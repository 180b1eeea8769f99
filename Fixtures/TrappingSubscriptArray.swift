// Written for racecheck, not ported from the posts: rows 23 and 24.
// No bug (row 23): every access holds one lock, and the subscript and `remove(at:)` trap on an
// index out of range, as `Array`'s do. The spec states their requirement (`index < count`), so
// such a trap is the contract at work where some order of the calls leaves the index invalid.
// Bug (row 24): the same class whose lock is made anew on every access (`var lock: NSLock
// { NSLock() }` stands for the common mistake of a lock that is not shared), so no two calls
// exclude each other: two removals of the same index both read the storage before either
// writes it, and one removal is lost.

import Foundation

/// An array behind an `NSLock` whose subscript and `remove(at:)` trap out of range, like `Array`.
///
/// ```swift
/// let array = TrappingSubscriptArray()
/// array.append(7)
/// array[0]          // 7
/// array[1]          // traps: Index out of range, by contract
/// ```
public final class TrappingSubscriptArray: @unchecked Sendable {
  private var storage: [Int] = []
  private let sharedLock = NSLock()
  private let sharesItsLock: Bool

  /// Creates an empty array; with `sharesItsLock` false, every access takes a lock of its own (row 24's bug).
  public init(sharesItsLock: Bool = true) {
    self.sharesItsLock = sharesItsLock
  }

  /// The lock an access takes: the array's own, or a new one that excludes nothing (row 24).
  private var lock: NSLock {
    sharesItsLock ? sharedLock : NSLock()
  }

  /// The number of elements.
  public var count: Int {
    lock.withLock { storage.count }
  }

  /// The element at `index`; traps when `index` is out of range.
  public subscript(index: Int) -> Int {
    lock.withLock { storage[index] }
  }

  /// Adds `element` at the end.
  public func append(_ element: Int) {
    lock.withLock { storage.append(element) }
  }

  /// Removes and returns the element at `index`; traps when `index` is out of range.
  @discardableResult
  public func remove(at index: Int) -> Int {
    lock.withLock { storage.remove(at: index) }
  }
}
