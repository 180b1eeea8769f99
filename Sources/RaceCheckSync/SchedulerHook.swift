import Synchronization

/// The one process-wide slot where a checker installs its ``SyncScheduler``.
///
/// This is the module's only global mutable state, and it has to be: production code
/// reaches the primitives from anywhere, with no context argument to carry a scheduler.
/// The fast path is one relaxed load of `isInstalled`; only when it is set does a
/// primitive take the mutex and ask the scheduler whether it controls the calling thread.
///
/// ```swift
/// SchedulerHook.install(scheduler)
/// defer { SchedulerHook.uninstall(scheduler) }
/// ```
public enum SchedulerHook {
  // Inlinable code reads it, so that the fast path is one load in the caller, with no call.
  @usableFromInline
  static let isInstalled = Atomic<Bool>(false)
  private static let slot = Mutex<(any SyncScheduler)?>(nil)

  /// Makes `scheduler` the one the primitives ask; it replaces any earlier one.
  public static func install(_ scheduler: any SyncScheduler) {
    slot.withLock { $0 = scheduler }
    isInstalled.store(true, ordering: .releasing)
  }

  /// Removes `scheduler` if it is the installed one; the primitives forward again.
  public static func uninstall(_ scheduler: any SyncScheduler) {
    slot.withLock { current in
      guard let installed = current, installed === scheduler else { return }
      current = nil
      isInstalled.store(false, ordering: .releasing)
    }
  }

  /// The installed scheduler when it controls the calling thread, else nil: one load on the fast path.
  @inlinable
  @inline(__always)
  public static var active: (any SyncScheduler)? {
    guard _slowPath(isInstalled.load(ordering: .relaxed)) else { return nil }
    return controllingScheduler()
  }

  @usableFromInline
  @inline(never)
  static func controllingScheduler() -> (any SyncScheduler)? {
    guard let scheduler = slot.withLock({ $0 }), scheduler.controlsCurrentThread() else {
      return nil
    }
    return scheduler
  }
}
