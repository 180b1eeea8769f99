// Port of `NSSafeMutableArray` from post 001 (shared/seeds/001_8d5ada8a42e4f8e6.txt).
// Original: lines 56-157.
// Bug (row 7): `objectAtIndex:` guards with `index <= self.array.count - 1` (line 131) in
// `NSUInteger` arithmetic: on an empty array `0 - 1` wraps to the maximum, the guard passes, and
// the read traps.
// Bug (row 8): `insertObject:atIndex:`, `removeObjectAtIndex:` and
// `replaceObjectAtIndex:withObject:` (lines 106, 118 and 124) check no index, inside a
// `dispatch_barrier_async` block: an invalid index traps on a dispatch worker after the caller
// has returned, where no caller can see it.
//
// Port notes: the `NSUInteger` guard is kept as unsigned arithmetic, with `UInt(bitPattern:)`
// and a wrapping `&-`. NSMutableArray's `NSRangeException` becomes the trap of the same Swift
// array access. `removeLastObject` (line 112) checks nothing either, but NSMutableArray's does
// nothing on an empty array and the post claims no more, so the port checks for an empty array
// where Swift's `removeLast()` would trap: of row 8's writes, it is the one that cannot crash.
// Objects the writes hand to the queue are `Sendable`, which Swift 6 requires of what crosses
// to a dispatch worker.

import Foundation

/// The array wrapper of post 001: reads run `sync`, writes are barriers on a concurrent queue.
///
/// ```swift
/// let array = NSSafeMutableArray()
/// array.objectAtIndex(0)  // on an empty array: traps, as `count - 1` wraps to `UInt.max`
/// array.addObject(Token(value: 1))
/// array.insertObject(Token(value: 2), atIndex: 5)  // returns, then traps on a dispatch worker
/// ```
public final class NSSafeMutableArray: @unchecked Sendable {
  private var array: [AnyObject] = []
  private let readWriteQuene = DispatchQueue(label: "com.liwb.quene", attributes: .concurrent)

  /// Creates an empty array with its own concurrent queue.
  public init() {}

  /// Appends `anObject` later, on the queue.
  public func addObject(_ anObject: any AnyObject & Sendable) {
    readWriteQuene.async(flags: .barrier) {
      self.array.append(anObject)
    }
  }

  /// Inserts `anObject` at `index` later, on the queue; an invalid index traps there (row 8).
  public func insertObject(_ anObject: any AnyObject & Sendable, atIndex index: Int) {
    readWriteQuene.async(flags: .barrier) {
      // The original checks nothing: NSMutableArray raises past `count`, Swift traps.
      self.array.insert(anObject, at: index)
    }
  }

  /// Removes the last element later, on the queue, or does nothing when the array is empty.
  public func removeLastObject() {
    readWriteQuene.async(flags: .barrier) {
      // NSMutableArray's `removeLastObject` does nothing on an empty array; Swift's would trap.
      if !self.array.isEmpty {
        self.array.removeLast()
      }
    }
  }

  /// Removes the element at `index` later, on the queue; an invalid index traps there (row 8).
  public func removeObjectAtIndex(_ index: Int) {
    readWriteQuene.async(flags: .barrier) {
      self.array.remove(at: index)
    }
  }

  /// Replaces the element at `index` later, on the queue; an invalid index traps there (row 8).
  public func replaceObjectAtIndex(_ index: Int, withObject anObject: any AnyObject & Sendable) {
    readWriteQuene.async(flags: .barrier) {
      self.array[index] = anObject
    }
  }

  /// The element at `index`, or nil past the end; on an empty array it traps (row 7's bug).
  public func objectAtIndex(_ index: Int) -> AnyObject? {
    readWriteQuene.sync {
      // The original's `index <= self.array.count - 1` on `NSUInteger`s: with `count == 0`
      // the right side wraps to `UInt.max`, so every index passes.
      if UInt(bitPattern: index) <= UInt(array.count) &- 1 {
        return array[index]
      }
      return nil
    }
  }

  /// The first element, or nil when the array is empty.
  public func getFirstObject() -> AnyObject? {
    readWriteQuene.sync {
      array.count > 0 ? array[0] : nil
    }
  }

  /// The last element, or nil when the array is empty.
  public func getLastObject() -> AnyObject? {
    readWriteQuene.sync {
      let size = array.count
      return size > 0 ? array[size - 1] : nil
    }
  }
}
