import Foundation

/// A lock with `NSLock`'s shape whose waits a checker can schedule.
///
/// ```swift
/// let lock = SyncLock()
/// lock.withLock { count.value += 1 }
/// ```
public final class SyncLock: NSLocking, @unchecked Sendable {
  // @unchecked Sendable: its properties are constants, and `NSLock` is thread-safe.
  @usableFromInline
  let underlying = NSLock()

  /// A name for reports, as `NSLock.name`.
  public let name: String?

  /// Creates an unlocked lock.
  public init(name: String? = nil) {
    self.name = name
  }

  /// Waits until the lock is free and takes it.
  @inlinable
  @inline(__always)
  public func lock() {
    if let scheduler = SchedulerHook.active {
      scheduler.acquire(self, kind: .lock, label: name)
      return
    }
    underlying.lock()
  }

  /// Frees the lock, which the calling thread holds.
  @inlinable
  @inline(__always)
  public func unlock() {
    if let scheduler = SchedulerHook.active {
      scheduler.release(self, kind: .lock)
      return
    }
    underlying.unlock()
  }
}
