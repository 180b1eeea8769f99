// Written for racecheck, not ported from the posts: row 37.
// No bug (row 37): the store keeps its entries in a `Synchronization.Mutex` and every read and
// write runs inside `withLock`, and it counts its writes in an `Atomic`. Thread Sanitizer must
// see the mutex's and the atomic's orders and report nothing.

import Synchronization

/// A string-keyed store whose entries live in a `Mutex` and whose write count is an `Atomic`.
///
/// ```swift
/// let store = MutexStore()
/// store.set("a", 1)   // inside state.withLock
/// store["a"]          // 1
/// ```
public final class MutexStore: Sendable {
  private let state = Mutex<[String: Int]>([:])
  private let writes = Atomic<Int>(0)

  /// Creates an empty store.
  public init() {}

  /// The value stored under `key`, read inside the mutex.
  public subscript(key: String) -> Int? {
    state.withLock { $0[key] }
  }

  /// Stores `value` under `key` inside the mutex, and counts the write.
  public func set(_ key: String, _ value: Int) {
    state.withLock { $0[key] = value }
    writes.add(1, ordering: .relaxed)
  }

  /// Removes the entry under `key`, if any, inside the mutex, and counts the write.
  public func remove(_ key: String) {
    _ = state.withLock { $0.removeValue(forKey: key) }
    writes.add(1, ordering: .relaxed)
  }

  /// The number of entries.
  public var count: Int {
    state.withLock { $0.count }
  }

  /// The number of writes made so far.
  public var writeCount: Int {
    writes.load(ordering: .relaxed)
  }
}
