import CRaceCheckInterposer
import Dispatch
import Foundation

/// Runs work on a thread of its own while the main thread, the caller, serves the main queue for it.
///
/// `DispatchQueue.main` and the main actor run their jobs on the main thread only, and a
/// process whose main thread waits for a check never runs them: a `@MainActor` subject
/// would hang its first call. An executable's commands and a main-thread check from the
/// main thread run through this instead.
package enum MainQueueService {
  /// Runs `work` beside the main thread until it ends, and returns its value, with whether the main queue was served meanwhile (libdispatch may give no handle).
  ///
  /// Called from another thread, it runs `work` there: only the main thread can serve the
  /// main queue, and in a test process its own loop already does.
  @discardableResult
  package static func serve<Value>(while work: @escaping @Sendable () -> Value) -> (
    value: Value, served: Bool
  ) {
    guard rc_is_main_thread() else { return (work(), false) }
    let drain = UncheckedBox(rc_main_drain_create()!)
    defer { rc_main_drain_destroy(drain.value) }
    let outcome = UncheckedBox(Outcome<Value>())
    let worker = Thread {
      outcome.value.keep(work())
      rc_main_drain_finish(drain.value)
    }
    worker.start()
    let served = rc_main_drain_run(drain.value)
    return (outcome.value.wait(), served)
  }

  /// The value the worker hands to the main thread, once.
  private final class Outcome<Value> {
    private let lock = NSLock()
    private let ended = DispatchSemaphore(value: 0)
    private var value: Value?

    func keep(_ value: Value) {
      lock.withLock { self.value = value }
      ended.signal()
    }

    func wait() -> Value {
      ended.wait()
      return lock.withLock { value! }
    }
  }
}
