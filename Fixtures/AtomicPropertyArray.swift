// Port of the atomic array property of post 003 (shared/seeds/003_a0c80f8d14c390a6.txt).
// Original: `@property (atomic,strong) NSMutableArray *tempAarray;` (line 386), filled with
// `[self.tempAarray addObject:…]` (line 399).
// Bug (row 19): `atomic` locks the property's getter and setter, that is the reference; the
// `NSMutableArray` behind it has no lock. Callers that mutate what the getter returned, as
// line 399 does, mutate one shared array from many threads: crashes or lost elements.
//
// Port notes: the post declares the property on a view controller; the port gives it a class of
// its own, so that a check can make one per invocation. The getter and setter each take a
// private `NSLock`, as the synthesized atomic accessors take the property's lock. The property
// keeps the post's spelling, `tempAarray`, and starts as the empty array line 397 assigns.

import Foundation

/// An atomic property holding a mutable array: the reference is locked, the array is not.
///
/// ```swift
/// let holder = AtomicPropertyArray()
/// holder.tempAarray.add(Token.interned(1))  // a locked read, then an unlocked append
/// holder.tempAarray.count                   // 1
/// ```
public final class AtomicPropertyArray: @unchecked Sendable {
  private var _tempAarray = NSMutableArray()
  private let lock = NSLock()

  /// Creates the holder with an empty array, as the post's `[[NSMutableArray alloc] init]`.
  public init() {}

  /// The array; reading and setting the reference are each atomic, using the array is not (row 19).
  public var tempAarray: NSMutableArray {
    get { lock.withLock { _tempAarray } }
    set { lock.withLock { _tempAarray = newValue } }
  }
}
