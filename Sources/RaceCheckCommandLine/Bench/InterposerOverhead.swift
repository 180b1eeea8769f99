import CRaceCheckInterposer
import Dispatch
import Foundation
import RaceCheckEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Measures what the interposer adds to the calls it takes over when no scheduler is installed.
///
/// Every call in the process goes through the interposer, so "without it" cannot be timed
/// directly: each figure times the interposed entry point and the original it forwards to
/// (called through its address), and reports the difference against the whole call a user
/// makes, `DispatchQueue.sync {}` or `NSLock`'s `lock()` and `unlock()`.
enum InterposerOverhead {
  /// The nanoseconds the interposer adds to one call, and the whole user-level call's nanoseconds.
  struct Figure {
    var added: Double
    var call: Double

    /// The added time as a percentage of the call without the interposer.
    var percent: Double { added / max(call - added, .ulpOfOne) * 100 }
  }

  private typealias SyncFunction =
    @convention(c) (
      OpaquePointer?, UnsafeMutableRawPointer?, (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
    ) -> Void
  private typealias MutexFunction = @convention(c) (UnsafeMutablePointer<pthread_mutex_t>?) -> Int32
  private typealias AccessFunction =
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt, UnsafeMutableRawPointer?
    ) -> Void

  private static func original<Function>(_ name: String, as type: Function.Type) -> Function {
    unsafeBitCast(rc_interposer_original(name), to: type)
  }

  /// The definition every library's calls bind to: the interposer's.
  private static func interposed<Function>(_ name: String, as type: Function.Type) -> Function {
    unsafeBitCast(dlsym(nil, name), to: type)
  }

  /// `DispatchQueue.sync {}` on a serial queue, and what `dispatch_sync_f`'s interposition adds to it.
  static func queueSync(iterations: Int) -> Figure {
    let queue = DispatchQueue(label: "bench.interposer")
    // A `DispatchQueue` wraps its `dispatch_queue_t` on Linux: the C functions need one of their own.
    let create = original(
      "dispatch_queue_create",
      as: (@convention(c) (UnsafePointer<CChar>?, OpaquePointer?) -> OpaquePointer?).self)
    let raw = create("bench.interposer.raw", nil)
    let originalSync = original("dispatch_sync_f", as: SyncFunction.self)
    let interposedSync = interposed("dispatch_sync_f", as: SyncFunction.self)
    let nothing: @convention(c) (UnsafeMutableRawPointer?) -> Void = { _ in }
    var best = (interposed: Double.infinity, original: Double.infinity, call: Double.infinity)
    var total = 0
    // Alternating rounds and keeping the best of each cancels out a busy neighbour's noise.
    for _ in 0..<5 {
      best.interposed = min(best.interposed, time(iterations) { interposedSync(raw, nil, nothing) })
      best.original = min(best.original, time(iterations) { originalSync(raw, nil, nothing) })
      best.call = min(best.call, time(iterations) { total &+= queue.sync { 1 } })
    }
    blackHole(total)
    return Figure(added: max(0, best.interposed - best.original), call: best.call)
  }

  /// `NSLock`'s `lock()` and `unlock()`, and what the interposition of glibc's mutex adds to them.
  static func lock(iterations: Int) -> Figure {
    let lock = NSLock()
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    defer { mutex.deallocate() }
    pthread_mutex_init(mutex, nil)
    let originalLock = original("pthread_mutex_lock", as: MutexFunction.self)
    let originalUnlock = original("pthread_mutex_unlock", as: MutexFunction.self)
    var best = (interposed: Double.infinity, original: Double.infinity, call: Double.infinity)
    for _ in 0..<5 {
      best.interposed = min(
        best.interposed,
        time(iterations) {
          pthread_mutex_lock(mutex)
          pthread_mutex_unlock(mutex)
        })
      best.original = min(
        best.original,
        time(iterations) {
          _ = originalLock(mutex)
          _ = originalUnlock(mutex)
        })
      best.call = min(
        best.call,
        time(iterations) {
          lock.lock()
          lock.unlock()
        })
    }
    return Figure(added: max(0, best.interposed - best.original), call: best.call)
  }

  /// Nanoseconds the interposition of the Swift runtime's exclusivity check adds to one access.
  static func access(iterations: Int) -> Double {
    let originalAccess = original("swift_beginAccess", as: AccessFunction.self)
    let interposedAccess = interposed("swift_beginAccess", as: AccessFunction.self)
    let storage = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 32, alignment: 8)
    defer {
      storage.deallocate()
      buffer.deallocate()
    }
    // A read with no tracking: the instantaneous check, which needs no end.
    var best = (interposed: Double.infinity, original: Double.infinity)
    for _ in 0..<5 {
      best.interposed = min(
        best.interposed, time(iterations) { interposedAccess(storage, buffer, 0, nil) })
      best.original = min(
        best.original, time(iterations) { originalAccess(storage, buffer, 0, nil) })
    }
    return max(0, best.interposed - best.original)
  }

  private static func time(_ iterations: Int, _ body: () -> Void) -> Double {
    let started = MonotonicInstant.now()
    for _ in 0..<iterations { body() }
    return started.elapsed.fractionalNanoseconds / Double(iterations)
  }
}
