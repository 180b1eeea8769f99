// Written for racecheck, not ported from the posts: row 38.
// No bug (row 38): reads run `sync` and writes `async` on one serial queue, and each write
// calls its completion handler from inside its block, once it has taken effect. Checked with
// `completing:` operations, whose waits are racecheck's own: none of its memory may be
// reported as the class's.

import Foundation

/// An array on one serial queue whose writes complete through a handler called from their block.
///
/// ```swift
/// let array = SerialQueueCompletionArray()
/// array.append(7) { count in print("now", count) }  // called once the write took effect
/// ```
public final class SerialQueueCompletionArray: @unchecked Sendable {
  private var storage: [Int] = []
  private let queue = DispatchQueue(label: "serial-queue-completion-array")

  /// Creates an empty array with its own serial queue.
  public init() {}

  /// The number of elements.
  public var count: Int {
    queue.sync { storage.count }
  }

  /// The element at `index`, or nil when it is out of range.
  public func element(at index: Int) -> Int? {
    queue.sync { storage.indices.contains(index) ? storage[index] : nil }
  }

  /// Appends `element` in a block on the queue, then calls `completion` with the new count.
  public func append(_ element: Int, completion: @escaping @Sendable (Int) -> Void) {
    queue.async { [self] in
      storage.append(element)
      completion(storage.count)
    }
  }

  /// Removes the last element, if any, in a block on the queue, then calls `completion`.
  public func removeLast(completion: @escaping @Sendable () -> Void) {
    queue.async { [self] in
      _ = storage.popLast()
      completion()
    }
  }
}
