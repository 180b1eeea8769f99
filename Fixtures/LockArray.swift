// Port of `LockArray` from post 000 (shared/seeds/000_c1ca6def58b45f92.txt).
// Original: lines 5-125.
// Bug (row 1): `insertObject:atIndex:` guards with `index < [_array count]` (line 67), so
// inserting at `count` is dropped, and so is any insert into an empty array.
// Bug (row 2): `objectEnumerator` returns `[_array objectEnumerator]` (line 60), an enumerator
// over the live storage: the caller reads it after leaving the queue, while writers mutate it.
// Bug (row 3): `indexOfObject:` compares with `==` (line 110): pointer identity, not `isEqual:`.
//
// Port notes: the storage is an `NSMutableArray`, as in the original, so that the enumerator
// reads the live array rather than a copy, as a Swift array's iterator would. Foundation on
// Linux enumerates it by index up to the count it had when the enumerator was made: after a
// removal the enumerator traps, after a replacement it reads the new element. `NSUInteger`
// indices become `Int`, and `0 <= index` stands for what an unsigned index guaranteed. The queue
// label drops the original's `%p` suffix, which only names the queue in a debugger.
// `removeLastObject` calls NSMutableArray's, which does nothing on an empty array.

import Foundation

/// The array wrapper of post 000 that runs every operation `sync` on its own serial queue.
///
/// ```swift
/// let array = LockArray()
/// array.addObject(Token.interned(1))
/// array.insertObject(Token.interned(2), atIndex: 1)  // dropped: the guard is `index < count`
/// ```
public final class LockArray: @unchecked Sendable {
  private let array = NSMutableArray()
  private let dispatchQueue = DispatchQueue(label: "com.lock.array")

  /// Creates an empty array with its own serial queue.
  public init() {}

  /// The number of elements.
  public var count: Int {
    dispatchQueue.sync { array.count }
  }

  /// The element at `index`, or nil when `index` is out of range.
  public func objectAtIndex(_ index: Int) -> AnyObject? {
    dispatchQueue.sync {
      guard 0 <= index && index < array.count else { return nil }
      return array.object(at: index) as AnyObject
    }
  }

  /// An enumerator over the live storage, read after the queue is left (row 2's bug).
  public func objectEnumerator() -> NSEnumerator {
    dispatchQueue.sync {
      // The original's `[_array objectEnumerator]`: not a copy, so it escapes the queue.
      array.objectEnumerator()
    }
  }

  /// Inserts `anObject` at `index`, but only when `index < count` (row 1's bug).
  public func insertObject(_ anObject: AnyObject, atIndex index: Int) {
    dispatchQueue.sync {
      // The original's guard: NSMutableArray accepts `index == count`, this rejects it.
      if 0 <= index && index < array.count {
        array.insert(anObject, at: index)
      }
    }
  }

  /// Appends `anObject`.
  public func addObject(_ anObject: AnyObject) {
    dispatchQueue.sync {
      array.add(anObject)
    }
  }

  /// Removes the element at `index`, or does nothing when `index` is out of range.
  public func removeObjectAtIndex(_ index: Int) {
    dispatchQueue.sync {
      if 0 <= index && index < array.count {
        array.removeObject(at: index)
      }
    }
  }

  /// Removes the last element, or does nothing when the array is empty.
  public func removeLastObject() {
    dispatchQueue.sync {
      array.removeLastObject()
    }
  }

  /// Replaces the element at `index` with `anObject`, or does nothing when `index` is out of range.
  public func replaceObjectAtIndex(_ index: Int, withObject anObject: AnyObject) {
    dispatchQueue.sync {
      if 0 <= index && index < array.count {
        array.replaceObject(at: index, with: anObject)
      }
    }
  }

  /// The first index holding `anObject` itself, or `NSNotFound`: identity, not equality (row 3).
  public func indexOfObject(_ anObject: AnyObject) -> Int {
    dispatchQueue.sync {
      // The original's `[_array objectAtIndex:i] == anObject` compares pointers.
      (0..<array.count).first { array.object(at: $0) as AnyObject === anObject } ?? NSNotFound
    }
  }
}
