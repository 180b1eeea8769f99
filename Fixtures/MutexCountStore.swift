// `MutexCountStore`, written for racecheck (row 34): a count per key behind a
// `Synchronization.Mutex`, as code that moved from `NSLock` to Swift 6's `Mutex` writes it.
// Bug: `increment(_:)` is `self[key] = (self[key] ?? 0) + 1`, whose subscript's get and set
// each take the Mutex, separately: two threads that read the same count both write it plus
// one, and an increment is lost. Each access is atomic; the update made of them is not.

import Synchronization

/// Counts per key; reading and writing a key are each atomic, `increment(_:)` is not.
///
/// ```swift
/// let store = MutexCountStore()
/// store.increment("a")  // a locked read, then a locked write
/// store["a"]            // 1
/// ```
public final class MutexCountStore: Sendable {
  private let counts = Mutex<[String: Int]>([:])

  /// Creates an empty store.
  public init() {}

  /// The count of `key`, nil when it was never set; reading and setting it each take the Mutex.
  public subscript(key: String) -> Int? {
    get { counts.withLock { $0[key] } }
    set { counts.withLock { $0[key] = newValue } }
  }

  /// Adds one to the count of `key` through the subscript's get, then its set (row 34's bug).
  public func increment(_ key: String) {
    self[key] = (self[key] ?? 0) + 1
  }
}
