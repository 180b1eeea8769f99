// Port of the unsynchronized array of post 001 (shared/seeds/001_8d5ada8a42e4f8e6.txt).
// Original: the opening example, lines 5-11.
// Bug (row 5): `[originArray addObject:…]` (line 9) runs on the global queue from 1000 blocks at
// once, with no synchronization at all: appends race, so the process crashes or loses elements.
//
// Port notes: the post's array is a local `NSMutableArray`; the port wraps a Swift array of
// objects in a class, so that a check can make one per invocation and call it from its own
// threads in place of the post's 1000 `dispatch_async` blocks. `count` and `objects` are the
// port's: the post never reads the array back, but a check needs to see what the appends left.

import Foundation

/// A mutable array of objects with no synchronization: post 001's example of what crashes.
///
/// ```swift
/// let array = UnsafeArray()
/// array.addObject(Token.interned(1))  // safe from one thread only
/// array.count                         // 1
/// ```
public final class UnsafeArray: @unchecked Sendable {
  private var array: [AnyObject] = []

  /// Creates an empty array.
  public init() {}

  /// The number of elements, read with no synchronization.
  public var count: Int {
    array.count
  }

  /// A copy of the elements, first to last, made with no synchronization.
  public var objects: [AnyObject] {
    array
  }

  /// Appends `anObject` with no synchronization (row 5's bug).
  public func addObject(_ anObject: AnyObject) {
    // The original's `[originArray addObject:…]`, called from many threads at once.
    array.append(anObject)
  }
}
