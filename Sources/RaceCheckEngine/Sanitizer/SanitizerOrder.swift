import CRaceCheckInterposer

/// The orders the scheduler's model of each primitive makes, told to Thread Sanitizer in a `--sanitize=thread` build.
///
/// Under the scheduler the code under test's primitives never reach the real queues, and the
/// threads hand over to each other through semaphores the sanitizer would take for orders
/// between every step. So the interposer hides the scheduler's own code from the sanitizer,
/// and the scheduler tells it, wherever its vector clocks join, the same order: the thread
/// that releases an object's clock releases the object's token, and the thread that joins
/// that clock acquires it. Elsewhere every call here does nothing.
enum SanitizerOrder {
  /// The calling thread's past is ordered before whoever acquires `object`'s order `slot` next.
  @inline(__always)
  static func release(_ object: AnyObject, slot: Int = 0) {
    guard SanitizerRaceLog.isActive else { return }
    rc_sanitizer_release(token(object, slot))
  }

  /// The calling thread is ordered after every release of `object`'s order `slot`.
  @inline(__always)
  static func acquire(_ object: AnyObject, slot: Int = 0) {
    guard SanitizerRaceLog.isActive else { return }
    rc_sanitizer_acquire(token(object, slot))
  }

  /// An address inside `object` (past its header, 8 bytes a slot) that the sanitizer keys an order by.
  private static func token(_ object: AnyObject, _ slot: Int) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()) + 16 + 8 * slot
  }
}
