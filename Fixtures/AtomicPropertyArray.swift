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
// keeps the post's spelling, `tempAarray`, and starts as the empty array line 397 assigns. The
// `NSMutableArray` becomes `SharedMutableArray`, its storage a `SyncCell`, so that schedule mode
// sees the unlocked appends; it appends in place and iterates by index as Foundation's
// `NSMutableArray` does, so that stress runs race the same way.
// Schedule mode: the queue is a `SyncQueue`, the lock a `SyncLock` and the stored state a
// `SyncCell` (RaceCheckSync), the change a user makes so that racecheck can schedule the class;
// with no scheduler installed they forward to Dispatch and Foundation, so stress mode is unchanged.

import Foundation
import RaceCheckSync

/// An atomic property holding a mutable array: the reference is locked, the array is not.
///
/// ```swift
/// let holder = AtomicPropertyArray()
/// holder.tempAarray.add(Token.interned(1))  // a locked read, then an unlocked append
/// holder.tempAarray.count                   // 1
/// ```
public final class AtomicPropertyArray: @unchecked Sendable {
  private let _tempAarrayCell = SyncCell(SharedMutableArray(), name: "_tempAarray")
  private let lock = SyncLock()

  /// Creates the holder with an empty array, as the post's `[[NSMutableArray alloc] init]`.
  public init() {}

  /// The array; reading and setting the reference are each atomic, using the array is not (row 19).
  public var tempAarray: SharedMutableArray {
    get { lock.withLock { _tempAarrayCell.value } }
    set { lock.withLock { _tempAarrayCell.value = newValue } }
  }
}

/// `NSMutableArray`'s `add`, `count` and iteration over a `SyncCell`, so that a checker sees its reads and writes.
///
/// It keeps `NSMutableArray`'s behaviour under stress: Foundation's `add` appends to one
/// Swift array in place with no lock, and its iterator reads that live array by index up to
/// the count it saw first. So `add` mutates the cell's storage in place, and iteration reads
/// the storage element by element rather than iterating over a copy.
///
/// ```swift
/// let array = SharedMutableArray()
/// array.add(Token.interned(1))  // a read and a write of the storage, with no lock
/// ```
public final class SharedMutableArray: Sequence, @unchecked Sendable {
  private let storage = SyncCell<[AnyObject]>([], name: "tempAarray.storage")

  /// Creates an empty array.
  public init() {}

  /// The number of elements.
  public var count: Int { storage.value.count }

  /// The element at `index`, read from the live storage.
  public subscript(index: Int) -> AnyObject { storage.value[index] }

  /// Appends `anObject` to the storage in place: a read of the storage, then a write.
  public func add(_ anObject: AnyObject) {
    storage.value.append(anObject)
  }

  /// Iterates over the live storage by index, up to the count when iteration began, as `NSArray.Iterator` does.
  public func makeIterator() -> Iterator {
    Iterator(array: self, count: count)
  }

  /// Reads the live storage element by element, as `NSArray.Iterator` does.
  public struct Iterator: IteratorProtocol {
    let array: SharedMutableArray
    let count: Int
    var index = 0

    /// The next element, or nil past the count iteration began with.
    public mutating func next() -> AnyObject? {
      guard index < count else { return nil }
      defer { index += 1 }
      return array[index]
    }
  }
}
