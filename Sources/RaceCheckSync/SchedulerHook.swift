import Synchronization

/// The one process-wide slot where a checker installs its ``SyncScheduler``.
///
/// This is the module's only global mutable state, and it has to be: production code
/// reaches the primitives from anywhere, with no context argument to carry a scheduler.
/// The fast path is one relaxed load of `isInstalled`; only when it is set does a
/// primitive take the mutex and ask the scheduler whether it controls the calling thread.
///
/// It is the package's, not the user's: racecheck's engine installs its scheduler here.
/// The primitives' inlinable bodies name it, so it is `@usableFromInline`, which lets a
/// user's module inline them while the name stays out of the public API.
///
/// ```swift
/// SchedulerHook.install(scheduler)
/// defer { SchedulerHook.uninstall(scheduler) }
/// ```
@usableFromInline
package enum SchedulerHook {
  // Inlinable code reads it, so that the fast path is one load in the caller, with no call.
  @usableFromInline
  static let isInstalled = Atomic<Bool>(false)
  private static let slot = Mutex<(any SyncScheduler)?>(nil)

  /// Makes `scheduler` the one the primitives ask; it replaces any earlier one.
  package static func install(_ scheduler: any SyncScheduler) {
    slot.withLock { $0 = scheduler }
    isInstalled.store(true, ordering: .releasing)
  }

  /// Removes `scheduler` if it is the installed one; the primitives forward again.
  package static func uninstall(_ scheduler: any SyncScheduler) {
    slot.withLock { current in
      guard let installed = current, installed === scheduler else { return }
      current = nil
      isInstalled.store(false, ordering: .releasing)
    }
  }

  /// The installed scheduler when it controls the calling thread, else nil: one load on the fast path.
  @inlinable
  @inline(__always)
  package static var active: (any SyncScheduler)? {
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
