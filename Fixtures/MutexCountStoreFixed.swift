// `MutexCountStoreFixed`, written for racecheck (row 35): `MutexCountStore` (row 34) fixed.
// No bug: `increment(_:)` reads and writes the count inside one `withLock`, so no other
// thread's update can come between its read and its write.

import Synchronization

/// Counts per key behind a `Mutex`, whose `increment(_:)` is one critical section.
///
/// ```swift
/// let store = MutexCountStoreFixed()
/// store.increment("a")  // one locked read-modify-write
/// store["a"]            // 1
/// ```
public final class MutexCountStoreFixed: Sendable {
  private let counts = Mutex<[String: Int]>([:])

  /// Creates an empty store.
  public init() {}

  /// The count of `key`, nil when it was never set; reading and setting it each take the Mutex.
  public subscript(key: String) -> Int? {
    get { counts.withLock { $0[key] } }
    set { counts.withLock { $0[key] = newValue } }
  }

  /// Adds one to the count of `key` under one hold of the Mutex.
  public func increment(_ key: String) {
    counts.withLock { $0[key, default: 0] += 1 }
  }
}
