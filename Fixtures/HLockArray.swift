// Port of `HLockArray` from post 000 (shared/seeds/000_c1ca6def58b45f92.txt).
// Original: lines 133-245.
// Bug (row 4): `insertObject:atIndex:` guards with `index < [_array count]` (line 191), so
// inserting at `count` is dropped, and so is any insert into an empty array.
// Also (row 4, a finding): the post announces "concurrent queue + barrier" but creates the
// queue with `DISPATCH_QUEUE_SERIAL` (line 157), so the writes' barriers have no effect and
// reads never run in parallel. `indexOfObject:` compares identity (line 232), and
// `objectEnumerator` hands out an enumerator over the live storage (line 184), as in `LockArray`.
//
// Port notes: the storage is an `NSMutableArray`, as in the original, so that the enumerator
// reads the live array rather than a copy. `NSUInteger` indices become `Int`, and
// `0 <= index` stands for what an unsigned index guaranteed. The queue label drops the
// original's `%p` suffix. Objects the writes hand to the queue are `Sendable`, which Swift 6
// requires of what crosses to a dispatch worker. `removeLastObject` calls NSMutableArray's,
// which does nothing on an empty array.

import Foundation

/// The array wrapper of post 000: reads run `sync`, writes are async barriers on a serial queue.
///
/// ```swift
/// let array = HLockArray()
/// array.addObject(Token.interned(1))
/// array.insertObject(Token.interned(2), atIndex: 1)  // dropped: the guard is `index < count`
/// ```
public final class HLockArray: @unchecked Sendable {
  private let array = NSMutableArray()
  // The original's `DISPATCH_QUEUE_SERIAL`, whatever the post says about a concurrent queue.
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

  /// An enumerator over the live storage, read after the queue is left, as in `LockArray`.
  public func objectEnumerator() -> NSEnumerator {
    dispatchQueue.sync {
      // The original's `[_array objectEnumerator]`: not a copy, so it escapes the queue.
      array.objectEnumerator()
    }
  }

  /// Inserts `anObject` at `index` later, on the queue, only when `index < count` (row 4's bug).
  public func insertObject(_ anObject: any AnyObject & Sendable, atIndex index: Int) {
    dispatchQueue.async(flags: .barrier) {
      // The original's guard: NSMutableArray accepts `index == count`, this rejects it.
      if 0 <= index && index < self.array.count {
        self.array.insert(anObject, at: index)
      }
    }
  }

  /// Appends `anObject` later, on the queue.
  public func addObject(_ anObject: any AnyObject & Sendable) {
    dispatchQueue.async(flags: .barrier) {
      self.array.add(anObject)
    }
  }

  /// Removes the element at `index` later, on the queue, when `index` is in range.
  public func removeObjectAtIndex(_ index: Int) {
    dispatchQueue.async(flags: .barrier) {
      if 0 <= index && index < self.array.count {
        self.array.removeObject(at: index)
      }
    }
  }

  /// Removes the last element later, on the queue, or does nothing when the array is empty.
  public func removeLastObject() {
    dispatchQueue.async(flags: .barrier) {
      self.array.removeLastObject()
    }
  }

  /// Replaces the element at `index` with `anObject` later, on the queue, when `index` is in range.
  public func replaceObjectAtIndex(_ index: Int, withObject anObject: any AnyObject & Sendable) {
    dispatchQueue.async(flags: .barrier) {
      if 0 <= index && index < self.array.count {
        self.array.replaceObject(at: index, with: anObject)
      }
    }
  }

  /// The first index holding `anObject` itself, or `NSNotFound`: identity, not equality.
  public func indexOfObject(_ anObject: AnyObject) -> Int {
    dispatchQueue.sync {
      // The original's `[_array objectAtIndex:i] == anObject` compares pointers.
      (0..<array.count).first { array.object(at: $0) as AnyObject === anObject } ?? NSNotFound
    }
  }
}
