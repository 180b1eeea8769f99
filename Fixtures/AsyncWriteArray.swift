// Written for racecheck, not ported from the posts: rows 27 and 28.
// No bug (row 27): reads run `sync` on a concurrent queue, writes run as barrier blocks
// submitted with `async`, and each write calls its completion handler from inside its
// barrier block, once it has taken effect.
// Bug (row 28): the same array calling the handler before it submits the write, as code
// that "only reports that the write was accepted" does: a caller that reads after its
// completion can run before the barrier block and miss its own write.

import Foundation

/// An array whose writes complete asynchronously, through a barrier block and a completion handler.
///
/// ```swift
/// let array = AsyncWriteArray()
/// array.append(7) { count in print("now", count) }  // called once the write took effect
/// ```
public final class AsyncWriteArray: @unchecked Sendable {
  private var storage: [Int] = []
  private let queue = DispatchQueue(label: "async-write-array", attributes: .concurrent)
  private let completesBeforeWriting: Bool

  /// Creates an empty array; with `completesBeforeWriting`, handlers run before the write (row 28's bug).
  public init(completesBeforeWriting: Bool = false) {
    self.completesBeforeWriting = completesBeforeWriting
  }

  /// The number of elements.
  public var count: Int {
    queue.sync { storage.count }
  }

  /// The element at `index`, or nil when it is out of range.
  public func element(at index: Int) -> Int? {
    queue.sync { storage.indices.contains(index) ? storage[index] : nil }
  }

  /// Appends `element` in a barrier block, then calls `completion` with the new count.
  public func append(_ element: Int, completion: @escaping @Sendable (Int) -> Void) {
    if completesBeforeWriting {
      // The count the write will make, reported before the write is even submitted.
      completion(count + 1)
    }
    queue.async(flags: .barrier) { [self] in
      storage.append(element)
      if !completesBeforeWriting { completion(storage.count) }
    }
  }

  /// Removes the last element, if any, in a barrier block, then calls `completion`.
  public func removeLast(completion: @escaping @Sendable () -> Void) {
    if completesBeforeWriting { completion() }
    queue.async(flags: .barrier) { [self] in
      _ = storage.popLast()
      if !completesBeforeWriting { completion() }
    }
  }
}
