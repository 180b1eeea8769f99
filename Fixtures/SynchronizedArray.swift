// Port of `SynchronizedArray` from post 001 (shared/seeds/001_8d5ada8a42e4f8e6.txt).
// Original: the `@synchronized (originArray)` fix, lines 14-22.
// No bug (row 6). The post only wraps `addObject:` in `@synchronized`; this generalizes that fix
// to the whole array contract of docs/catalogue.md, with the guards right
// (`insertObject:atIndex:` accepts `0...count`) and every operation under one lock.
//
// Port notes: the lock is an `NSLock`, as the catalogue allows; nothing here re-enters it, so
// `@synchronized`'s recursion is not needed. `indexOfObject:` and `containsObject:` compare the
// way `isEqual:` does: `==` for objects of one `Equatable` type, identity otherwise.

import Foundation

/// A mutable array of objects with every operation under one lock: post 001's `@synchronized` fix.
///
/// ```swift
/// let array = SynchronizedArray()
/// array.insertObject(Token(value: 1), atIndex: 0)
/// array.indexOfObject(Token(value: 1))  // 0: compared by equality
/// ```
public final class SynchronizedArray: @unchecked Sendable {
  private var array: [AnyObject] = []
  private let lock = NSLock()

  /// Creates an empty array.
  public init() {}

  /// The number of elements.
  public var count: Int {
    lock.withLock { array.count }
  }

  /// The element at `index`, or nil when `index` is out of range.
  public func objectAtIndex(_ index: Int) -> AnyObject? {
    lock.withLock { array.indices.contains(index) ? array[index] : nil }
  }

  /// The first element, or nil when the array is empty.
  public var firstObject: AnyObject? {
    lock.withLock { array.first }
  }

  /// The last element, or nil when the array is empty.
  public var lastObject: AnyObject? {
    lock.withLock { array.last }
  }

  /// The first index whose element is equal to `anObject`, or `NSNotFound`.
  public func indexOfObject(_ anObject: AnyObject) -> Int {
    lock.withLock { array.firstIndex { isEqual($0, anObject) } ?? NSNotFound }
  }

  /// Whether an element is equal to `anObject`.
  public func containsObject(_ anObject: AnyObject) -> Bool {
    lock.withLock { array.contains { isEqual($0, anObject) } }
  }

  /// Appends `anObject`.
  public func addObject(_ anObject: AnyObject) {
    lock.withLock { array.append(anObject) }
  }

  /// Inserts `anObject` at `index`, which may be `count`; any other out-of-range index is ignored.
  public func insertObject(_ anObject: AnyObject, atIndex index: Int) {
    lock.withLock {
      if 0 <= index && index <= array.count {
        array.insert(anObject, at: index)
      }
    }
  }

  /// Removes the element at `index`, or does nothing when `index` is out of range.
  public func removeObjectAtIndex(_ index: Int) {
    lock.withLock {
      if array.indices.contains(index) {
        array.remove(at: index)
      }
    }
  }

  /// Removes the last element, or does nothing when the array is empty.
  public func removeLastObject() {
    lock.withLock {
      if !array.isEmpty {
        array.removeLast()
      }
    }
  }

  /// Replaces the element at `index` with `anObject`, or does nothing when `index` is out of range.
  public func replaceObjectAtIndex(_ index: Int, withObject anObject: AnyObject) {
    lock.withLock {
      if array.indices.contains(index) {
        array[index] = anObject
      }
    }
  }
}
