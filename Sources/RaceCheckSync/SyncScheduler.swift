/// The scheduler a checker installs to take control of every primitive of this module.
///
/// With none installed, the primitives forward to Dispatch, Foundation and
/// Synchronization. A scheduler decides, before each primitive's visible effect,
/// which of its controlled threads runs next; it answers for the calling thread
/// only when ``controlsCurrentThread()`` says so.
///
/// racecheck's engine is the one scheduler; the primitives' inlinable bodies call it, so
/// it is `@usableFromInline` rather than public.
///
/// ```swift
/// SchedulerHook.install(myScheduler)
/// defer { SchedulerHook.uninstall(myScheduler) }
/// ```
@usableFromInline
package protocol SyncScheduler: AnyObject, Sendable {
  /// Whether the calling thread is one this scheduler runs; the others use the real primitives.
  func controlsCurrentThread() -> Bool

  /// Runs `body` on the calling thread once `queue` admits it, as `DispatchQueue.sync` does.
  func sync(on queue: SyncQueue, barrier: Bool, _ body: () -> Void)

  /// Submits `body` to `queue`, to run on a controlled thread of its own, as `DispatchQueue.async` does.
  func async(on queue: SyncQueue, barrier: Bool, _ body: @escaping @Sendable () -> Void)

  /// Acquires `lock` for the calling thread, waiting while another thread holds it.
  func acquire(_ lock: AnyObject, kind: SyncObjectKind, label: String?)

  /// Releases `lock`, held by the calling thread.
  func release(_ lock: AnyObject, kind: SyncObjectKind)

  /// A scheduling point with no effect of its own, where ``SyncPoint/yield(_:)`` is called.
  func yield(label: String)

  /// Performs one access to an atomic or a cell at a scheduling point; `effect` returns the value, described.
  func access(
    _ object: AnyObject, kind: SyncObjectKind, _ access: SyncAccess, label: String?,
    _ effect: () -> String)
}

/// What kind of primitive a scheduler is told about.
@usableFromInline
package enum SyncObjectKind: String, Sendable, Hashable {
  /// A ``SyncLock``.
  case lock
  /// A ``SyncMutex``.
  case mutex
  /// A ``SyncAtomicInt`` or ``SyncAtomicBool``.
  case atomic
  /// A ``SyncCell``.
  case cell
}

/// How an access touches an atomic or a cell.
@usableFromInline
package enum SyncAccess: String, Sendable, Hashable {
  /// Reads the value.
  case read
  /// Replaces the value.
  case write
  /// Reads and writes it in one step (an atomic read-modify-write, or a cell's `update`).
  case update
}
