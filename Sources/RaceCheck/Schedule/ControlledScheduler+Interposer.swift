import CRaceCheckInterposer

/// The scheduler's side of the interposer: unmodified code's queues, mutexes and stored properties as scheduling points.
extension ControlledScheduler {
  /// Runs `body` as code under test: the interposer hands the primitives it calls to the scheduler.
  func asSubject<T>(_ body: () throws -> T) rethrows -> T {
    let previous = rc_interposer_set_mode(RC_MODE_SUBJECT)
    defer { _ = rc_interposer_set_mode(previous) }
    return try body()
  }

  /// Runs `body` as the scheduler's own code, which the interposer forwards untouched.
  func asScheduler<T>(_ body: () throws -> T) rethrows -> T {
    let previous = rc_interposer_set_mode(RC_MODE_SCHEDULER)
    defer { _ = rc_interposer_set_mode(previous) }
    return try body()
  }

  fileprivate func enterQueue(_ queue: rc_queue, barrier: Bool) {
    enterQueue(state(of: QueueIdentity(queue)), barrier: barrier)
  }

  fileprivate func submit(_ work: rc_work, to queue: rc_queue, barrier: Bool) {
    let work = UncheckedBox(work)
    submit(to: state(of: QueueIdentity(queue)), barrier: barrier) { rc_work_run(work.value) }
  }

  fileprivate func lock(_ mutex: UInt, recursive: Bool) {
    acquire(state(ofLock: mutex, kind: "lock", label: nil), recursive: recursive)
  }

  fileprivate func tryLock(_ mutex: UInt, recursive: Bool) -> Bool {
    tryAcquire(state(ofLock: mutex, kind: "lock", label: nil), recursive: recursive)
  }

  fileprivate func unlock(_ mutex: UInt) {
    release(state(ofLock: mutex, kind: "lock", label: nil))
  }

  /// One access to stored state at `address`, as the Swift runtime's exclusivity check announces it.
  fileprivate func access(_ address: UInt, modify: Bool) {
    let me = currentThread()
    let state =
      variables[address] ?? variable(at: address, kind: "property", label: property(at: address))
    point(me)
    let step = record(me, "\(state.name) \(modify ? "modify" : "read")")
    checkRace(on: state, by: me, modify ? .write : .read, step: step)
    if !modify { noteReadAfterLeaving(by: me) }
  }

  /// Forgets what was known of the addresses a new object now occupies: that was another object.
  fileprivate func allocated(_ address: UInt, size: UInt, metadata: UnsafeRawPointer?) {
    let end = address &+ size
    for key in variables.keys where key >= address && key < end {
      variables[key] = nil
    }
    for (start, object) in objects where start < end && address < start &+ object.size {
      objects[start] = nil
    }
    guard let metadata else { return }
    objects[address] = AllocatedObject(
      size: size, type: unsafeBitCast(metadata, to: AnyClass.self))
  }

  /// The name of the stored property at `address`, when it lies in an object allocated in this schedule.
  private func property(at address: UInt) -> String? {
    guard
      let (start, object) = objects.first(where: {
        address >= $0.key && address < $0.key &+ $0.value.size
      })
    else { return nil }
    let id = ObjectIdentifier(object.type)
    let layout = layouts[id] ?? ClassLayout(object.type)
    layouts[id] = layout
    return layout.property(at: Int(address - start))
  }
}

/// The interposer's hook table, pointing at one scheduler while it runs a schedule.
final class InterposerHooks {
  private let table: UnsafeMutablePointer<rc_interposer_hooks>

  init(_ scheduler: ControlledScheduler) {
    table = .allocate(capacity: 1)
    table.initialize(
      to: rc_interposer_hooks(
        context: Unmanaged.passUnretained(scheduler).toOpaque(),
        queue_sync_enter: { context, queue, barrier in
          InterposerHooks.scheduler(context).enterQueue(queue, barrier: barrier)
        },
        queue_sync_exit: { context, _, _ in InterposerHooks.scheduler(context).leaveQueue() },
        queue_async: { context, queue, barrier, work in
          InterposerHooks.scheduler(context).submit(work, to: queue, barrier: barrier)
        },
        mutex_lock: { context, mutex, recursive in
          InterposerHooks.scheduler(context).lock(UInt(bitPattern: mutex), recursive: recursive)
        },
        mutex_trylock: { context, mutex, recursive in
          InterposerHooks.scheduler(context).tryLock(UInt(bitPattern: mutex), recursive: recursive)
        },
        mutex_unlock: { context, mutex in
          InterposerHooks.scheduler(context).unlock(UInt(bitPattern: mutex))
        },
        access: { context, address, modify, _ in
          InterposerHooks.scheduler(context).access(UInt(bitPattern: address), modify: modify)
        },
        allocated: { context, address, size, metadata in
          InterposerHooks.scheduler(context).allocated(
            UInt(bitPattern: address), size: UInt(size), metadata: metadata)
        }))
  }

  deinit {
    table.deinitialize(count: 1)
    table.deallocate()
  }

  /// Sends every controlled thread's primitives to the scheduler.
  func install() { rc_interposer_install(table) }

  /// Lets them forward again.
  func uninstall() { rc_interposer_install(nil) }

  private static func scheduler(_ context: UnsafeMutableRawPointer?) -> ControlledScheduler {
    Unmanaged<ControlledScheduler>.fromOpaque(context!).takeUnretainedValue()
  }
}
