// Written for racecheck, not ported from the posts: row 39.
// No bug (row 39): a dictionary on one serial queue, read with `sync` and written with
// `async` (the queue runs blocks in the order they were submitted), whose `shallowCopy`
// returns the dictionary from `queue.sync { storage }`: the copy shares the storage until a
// write, and a write's copy-on-write is ordered after the read by the queue.

import Foundation

/// A dictionary read `sync` and written `async` on one serial queue, which hands out copies.
///
/// ```swift
/// let dictionary = SerialQueueCopyDictionary()
/// dictionary.set("a", 1)          // returns before the write runs
/// dictionary.shallowCopy()["a"]   // 1: the read queues behind the write
/// ```
public final class SerialQueueCopyDictionary: @unchecked Sendable {
  private var storage: [String: Int] = [:]
  private let queue = DispatchQueue(label: "serial-queue-copy-dictionary")

  /// Creates an empty dictionary with its own serial queue.
  public init() {}

  /// The value stored under `key`.
  public subscript(key: String) -> Int? {
    queue.sync { storage[key] }
  }

  /// Stores `value` under `key` in a block submitted with `async`.
  public func set(_ key: String, _ value: Int) {
    queue.async { [self] in storage[key] = value }
  }

  /// Removes the entry under `key` in a block submitted with `async`.
  public func remove(_ key: String) {
    queue.async { [self] in storage[key] = nil }
  }

  /// A copy of the whole dictionary, taken on the queue.
  public func shallowCopy() -> [String: Int] {
    queue.sync { storage }
  }
}
