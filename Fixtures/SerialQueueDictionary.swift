// Written for racecheck, not ported from the posts: row 25.
// No bug in the class itself: every subscript read and write runs `sync` on one serial queue,
// so each is atomic. Bug (row 25), in its client: `dictionary[key] = (dictionary[key] ?? 0) + 1`
// is a read and a write, each atomic, with nothing holding the queue between them, so two
// threads incrementing the same key both read the old count and one increment is lost.

import Foundation

/// A dictionary whose subscript runs every read and write on one serial queue.
///
/// ```swift
/// let counts = SerialQueueDictionary<String, Int>()
/// counts["a"] = (counts["a"] ?? 0) + 1   // two atomic steps, not one
/// ```
public final class SerialQueueDictionary<Key: Hashable & Sendable, Element: Sendable>:
  @unchecked Sendable
{
  private var storage: [Key: Element] = [:]
  private let queue = DispatchQueue(label: "serial-queue-dictionary")

  /// Creates an empty dictionary with its own serial queue.
  public init() {}

  /// The element stored under `key`; reading and writing it are each atomic.
  public subscript(key: Key) -> Element? {
    get { queue.sync { storage[key] } }
    set { queue.sync { storage[key] = newValue } }
  }

  /// The number of entries.
  public var count: Int {
    queue.sync { storage.count }
  }
}
