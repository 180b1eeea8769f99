import Synchronization

/// A value that only closure-scoped, locked access can reach, as `Synchronization.Mutex` holds one.
///
/// ```swift
/// let photos = SyncMutex<[Int]>([])
/// photos.withLock { $0.append(7) }
/// let count = photos.withLock { $0.count }
/// ```
public final class SyncMutex<Value>: @unchecked Sendable {
  // @unchecked Sendable: only `Mutex.withLock` reaches the value; `name` is constant.
  private let mutex: Mutex<Value>

  /// A name for reports.
  public let name: String?

  /// Creates a mutex holding `value`.
  public init(_ value: sending Value, name: String? = nil) {
    mutex = Mutex(value)
    self.name = name
  }

  /// Runs `body` with the value while holding the lock, and returns what it returns.
  @inline(__always)
  public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result)
    throws(E) -> sending Result
  {
    if let scheduler = SchedulerHook.active {
      scheduler.acquire(self, kind: .mutex, label: name)
      defer { scheduler.release(self, kind: .mutex) }
      // Only the scheduled thread runs, so the real mutex is never contended here.
      return try mutex.withLock(body)
    }
    return try mutex.withLock(body)
  }
}
