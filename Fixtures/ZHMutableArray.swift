// Port of `ZHMutableArray` from post 003 (shared/seeds/003_a0c80f8d14c390a6.txt).
// Original: lines 204-375.
// Bug (row 18): `insertObject:atIndex:` guards with `index < [self.arr count]` (line 308), so
// inserting at `count` is dropped, and so is any insert into an empty array.
// Bug (row 18): `array` returns the internal mutable array itself (line 262), and
// `objectEnumerator` an enumerator over it (line 300): callers read and mutate the live storage
// outside the queue, alongside the barrier writes.
// Bug (row 18): `indexOfObject:` compares with `==` (line 361): pointer identity, not `isEqual:`.
//
// Port notes: the storage is an `NSMutableArray`, as in the original, so that what `array`
// returns is the live storage and not a copy. `NSUInteger` indices become `Int`, and
// `0 <= index` stands for what an unsigned index guaranteed. The queue label drops the
// original's `%p` suffix. `containsObject:` and `removeObject:` compare the way `isEqual:` does
// (`==` for objects of one `Equatable` type, identity otherwise) with a loop of their own:
// Foundation on Linux boxes each Swift object it stores, and its own `contains(_:)` then finds
// not even the object itself. `removeLastObject` calls NSMutableArray's, which does nothing on an
// empty array. Objects the writes hand to the queue are `Sendable`, which Swift 6 requires of
// what crosses to a dispatch worker.

import Foundation

/// The array wrapper of post 003: reads run `sync`, writes are barriers on a concurrent queue.
///
/// ```swift
/// let array = ZHMutableArray()
/// array.insertObject(Token.interned(1), atIndex: 0)  // dropped: the guard is `index < count`
/// array.array.add(Token.interned(2))                 // mutates the live storage, unguarded
/// ```
public final class ZHMutableArray: @unchecked Sendable {
  private let concurrentQueue = DispatchQueue(label: "<ZHMutableArray>", attributes: .concurrent)
  private let arr = NSMutableArray()

  /// Creates an empty array with its own concurrent queue.
  public init() {}

  /// The internal mutable array itself, not a copy: it escapes the queue (row 18's bug).
  public var array: NSMutableArray {
    concurrentQueue.sync {
      // The original's `safeArray = self.arr`: the reference leaves, the lock does not follow.
      arr
    }
  }

  /// Whether an element is equal to `anObject`.
  public func containsObject(_ anObject: AnyObject) -> Bool {
    concurrentQueue.sync {
      (0..<arr.count).contains { isEqual(arr.object(at: $0) as AnyObject, anObject) }
    }
  }

  /// The number of elements.
  public var count: Int {
    concurrentQueue.sync { arr.count }
  }

  /// The element at `index`, or nil when `index` is out of range.
  public func objectAtIndex(_ index: Int) -> AnyObject? {
    concurrentQueue.sync {
      guard 0 <= index && index < arr.count else { return nil }
      return arr.object(at: index) as AnyObject
    }
  }

  /// An enumerator over the live storage, read after the queue is left (row 18's bug).
  public func objectEnumerator() -> NSEnumerator {
    concurrentQueue.sync {
      // The original's `[self.arr objectEnumerator]`: not a copy, so it escapes the queue.
      arr.objectEnumerator()
    }
  }

  /// Inserts `anObject` at `index` later, on the queue, only when `index < count` (row 18's bug).
  public func insertObject(_ anObject: any AnyObject & Sendable, atIndex index: Int) {
    concurrentQueue.async(flags: .barrier) {
      // The original's guard: NSMutableArray accepts `index == count`, this rejects it.
      if 0 <= index && index < self.arr.count {
        self.arr.insert(anObject, at: index)
      }
    }
  }

  /// Appends `anObject` later, on the queue.
  public func addObject(_ anObject: any AnyObject & Sendable) {
    concurrentQueue.async(flags: .barrier) {
      self.arr.add(anObject)
    }
  }

  /// Removes the element at `index` later, on the queue, when `index` is in range.
  public func removeObjectAtIndex(_ index: Int) {
    concurrentQueue.async(flags: .barrier) {
      if 0 <= index && index < self.arr.count {
        self.arr.removeObject(at: index)
      }
    }
  }

  /// Removes every element equal to `anObject` later, on the queue.
  public func removeObject(_ anObject: any AnyObject & Sendable) {
    concurrentQueue.async(flags: .barrier) {
      let matches = (0..<self.arr.count).filter {
        isEqual(self.arr.object(at: $0) as AnyObject, anObject)
      }
      self.arr.removeObjects(at: IndexSet(matches))
    }
  }

  /// Removes the last element later, on the queue, or does nothing when the array is empty.
  public func removeLastObject() {
    concurrentQueue.async(flags: .barrier) {
      self.arr.removeLastObject()
    }
  }

  /// Replaces the element at `index` with `anObject` later, on the queue, when `index` is in range.
  public func replaceObjectAtIndex(_ index: Int, withObject anObject: any AnyObject & Sendable) {
    concurrentQueue.async(flags: .barrier) {
      if 0 <= index && index < self.arr.count {
        self.arr.replaceObject(at: index, with: anObject)
      }
    }
  }

  /// The first index holding `anObject` itself, or `NSNotFound`: identity, not equality.
  public func indexOfObject(_ anObject: AnyObject) -> Int {
    concurrentQueue.sync {
      // The original's `[self.arr objectAtIndex:i] == anObject` compares pointers.
      (0..<arr.count).first { arr.object(at: $0) as AnyObject === anObject } ?? NSNotFound
    }
  }
}
