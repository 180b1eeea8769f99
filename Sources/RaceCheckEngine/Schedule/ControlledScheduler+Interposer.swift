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
    submit(
      to: state(of: QueueIdentity(queue)), barrier: barrier, running(work),
      afterEnd: { [work = UncheckedBox(work)] in rc_work_finish(work.value) })
  }

  /// What runs `work` on a controlled thread: the block or the function, after noting the job it runs for the concurrency runtime's, which says what the job's steps touch (``noteRuntimeTouches(of:)``).
  func running(_ work: rc_work) -> () -> Void {
    let job = runsAConcurrencyJob(work) ? UncheckedBox(work.context) : nil
    return { [work = UncheckedBox(work)] in
      if let job { rc_runtime_note_job(job.value) }
      rc_work_run(work.value)
    }
  }

  /// Whether `work` runs a Swift concurrency job: the runtime's executors submit jobs as functions of its own library, with the job as the context.
  private func runsAConcurrencyJob(_ work: rc_work) -> Bool {
    guard work.block == nil, let function = work.function else { return false }
    let address = UInt(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self))
    if let known = concurrencyJobFunctions[address] { return known }
    let isJob = CodeAddress(placing: address)?.module.contains("libswift_Concurrency") ?? false
    concurrencyJobFunctions[address] = isJob
    return isJob
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

  /// Takes a reader-writer lock for writing, like a mutex, or for reading, beside other readers.
  fileprivate func lock(readerWriter address: UInt, forWriting: Bool) {
    let lock = state(ofLock: address, kind: "rwlock", label: nil)
    guard !forWriting else { return acquire(lock, recursive: false) }
    let me = currentThread()
    point(me, waiting: .readLock(lock), next: .primitive(lock.address))
    takeForReading(lock, me)
    record(me, "\(lock.name) acquire for reading")
  }

  fileprivate func tryLock(readerWriter address: UInt, forWriting: Bool) -> Bool {
    let lock = state(ofLock: address, kind: "rwlock", label: nil)
    guard !forWriting else {
      guard lock.readers.isEmpty else {
        let me = currentThread()
        point(me, next: .primitive(lock.address))
        record(me, "\(lock.name) try-acquire fails")
        return false
      }
      return tryAcquire(lock, recursive: false)
    }
    let me = currentThread()
    point(me, next: .primitive(lock.address))
    guard lock.owner == nil else {
      record(me, "\(lock.name) try-acquire for reading fails")
      return false
    }
    takeForReading(lock, me)
    record(me, "\(lock.name) try-acquire for reading")
    return true
  }

  private func takeForReading(_ lock: LockState, _ me: ControlledThread) {
    lock.readers[me.id, default: 0] += 1
    me.clock.join(lock.clock)
    SanitizerOrder.acquire(lock)
    me.heldLocks.append(lock.address)
  }

  fileprivate func unlock(readerWriter address: UInt) {
    let lock = state(ofLock: address, kind: "rwlock", label: nil)
    let me = currentThread()
    guard let holds = lock.readers[me.id] else { return release(lock) }
    lock.readers[me.id] = holds > 1 ? holds - 1 : nil
    // A writer after the readers is ordered after each of them. (So is a later reader, which
    // can only hide a race, never invent one.)
    lock.clock.join(me.clock)
    SanitizerOrder.release(lock)
    me.clock.tick(me.id)
    dropHeldLock(lock.address, of: me)
    me.synchronizedInActivity = true
    record(me, "\(lock.name) release for reading")
  }

  /// The semaphore, group or condition at `object`, made on its first use.
  func signalState(_ object: UnsafeRawPointer?, _ kind: rc_signal_kind) -> SignalState {
    let address = UInt(bitPattern: object)
    if let known = signals[address] { return known }
    let word: String
    switch kind {
    case RC_SIGNAL_SEMAPHORE: word = "semaphore"
    case RC_SIGNAL_GROUP: word = "group"
    default: word = "condition"
    }
    let state = SignalState(name: name(word, nil))
    signals[address] = state
    return state
  }

  /// A scheduling point before a try to take a semaphore's count or to find a group empty.
  fileprivate func signalTry(_ object: UnsafeRawPointer?, _ kind: rc_signal_kind) {
    let me = currentThread()
    let state = signalState(object, kind)
    point(me, next: .primitive(UInt(bitPattern: object)))
    // Whatever the try finds was left by the signals so far: it is ordered after them. (A
    // failed try is ordered too, which can only hide a race, never invent one.)
    me.clock.join(state.clock)
    SanitizerOrder.acquire(state)
    record(me, "\(state.name) \(kind == RC_SIGNAL_GROUP ? "wait" : "wait (try)")")
  }

  /// Waits for a signal after a failed try; false when a timed wait was chosen to time out instead.
  fileprivate func signalWait(_ object: UnsafeRawPointer?, _ kind: rc_signal_kind, timed: Bool)
    -> Bool
  {
    let me = currentThread()
    let state = signalState(object, kind)
    return awaitSignal(state, at: UInt(bitPattern: object), me, timed: timed)
  }

  private func awaitSignal(
    _ state: SignalState, at address: UInt, _ me: ControlledThread, timed: Bool
  ) -> Bool {
    let since = state.generation
    record(me, "\(state.name) waits")
    point(me, waiting: .signal(state, since: since, timed: timed), next: .primitive(address))
    guard state.generation > since else {
      record(me, "\(state.name) times out")
      return false
    }
    me.clock.join(state.clock)
    SanitizerOrder.acquire(state)
    record(me, "\(state.name) wakes")
    return true
  }

  fileprivate func signal(_ object: UnsafeRawPointer?, _ kind: rc_signal_kind) {
    let me = currentThread()
    let state = signalState(object, kind)
    point(me, next: .primitive(UInt(bitPattern: object)))
    state.generation += 1
    state.clock.join(me.clock)
    SanitizerOrder.release(state)
    me.clock.tick(me.id)
    let verb: String
    switch kind {
    case RC_SIGNAL_GROUP: verb = "leave"
    default: verb = "signal"
    }
    // A condition keeps no count: a signal with no waiter wakes no one, ever.
    if kind == RC_SIGNAL_CONDITION, !isAnyThreadWaiting(for: state) {
      state.lostSignalFrom = me.name
      record(me, "\(state.name) \(verb), with no thread waiting")
      return
    }
    record(me, "\(state.name) \(verb)")
  }

  fileprivate func conditionWait(
    _ condition: UnsafeRawPointer?, mutex: UInt, timed: Bool
  ) -> Bool {
    let me = currentThread()
    let signals = signalState(condition, RC_SIGNAL_CONDITION)
    let lock = state(ofLock: mutex, kind: "lock", label: nil)
    release(lock)
    let signaled = awaitSignal(signals, at: UInt(bitPattern: condition), me, timed: timed)
    acquire(lock, recursive: false)
    return signaled
  }

  /// One access to stored state at `address`, as the Swift runtime's exclusivity check announces it.
  fileprivate func access(_ address: UInt, modify: Bool) {
    if injectedFault == .crashInAccessHook { commitInjectedFault() }
    let me = currentThread()
    let owner = object(at: address)
    let state = variable(
      at: address, kind: "property",
      label: owner.flatMap { $0.layout.property(at: Int(address - $0.start)) })
    point(me, next: modify ? .writes(address) : .reads(address))
    let step = record(me, "\(state.name) \(modify ? "modify" : "read")")
    // An actor's jobs run one at a time by the runtime's own atomics, which no hook shows:
    // its state is ordered, though no primitive the scheduler models orders it.
    if owner?.layout.isActor == true { return }
    checkRace(on: state, by: me, modify ? .write : .read, step: step)
    if !modify { noteReadAfterLeaving(by: me) }
  }

  /// One plain load or store of C code built with load and store tracing: a scheduling point, not a race check.
  ///
  /// C code is often written with races its author knows to be benign; a Thread Sanitizer
  /// build reports the ones that are not. What the point gives is the order: two plain
  /// stores of one thread are two points, which another thread's load can fall between.
  fileprivate func tracedAccess(_ address: UInt, modify: Bool, pc: UInt) {
    tracedCode.insert(pc)
    // An access to the thread's own stack: no other thread shares it.
    guard address != 0 else { return }
    let me = currentThread()
    // Named once, on the address's first access: a C global by its symbol, else by number.
    let state =
      variables[address]
      ?? {
        let global = resources.globals.name(of: address)
        return variable(at: address, kind: global == nil ? "memory" : "global", label: global)
      }()
    point(me, next: modify ? .writes(address) : .reads(address))
    record(me, "\(state.name) \(modify ? "store" : "load")")
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
    // Only a class instance has stored properties to name; a closure's context or a box has none.
    guard let metadata, let type = ClassLayout.instanceClass(of: metadata) else { return }
    objects[address] = AllocatedObject(size: size, type: type)
    let layout = resources.layout(of: type)
    for unseen in layout.unseenSynchronization { noteUnseen(unseen) }
    guard !layout.mutexes.isEmpty else { return }
    // The object is kept until the schedule ends, when its words are given back.
    mutexOwners.append(
      Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).retain())
    for (offset, property) in layout.mutexes {
      mutexWords[address &+ UInt(offset)] = property
    }
  }

  /// Makes every free Mutex the scheduler models miss its fast paths.
  ///
  /// A word is poisoned only while it is 0, free: a new object's initializer writes 0 after its
  /// allocation, so this runs at every scheduling point, when no thread is inside a fast path.
  func poisonMutexes() {
    for word in mutexWords.keys {
      _ = rc_mutex_word_replace(UnsafeMutableRawPointer(bitPattern: word), 0, RC_MUTEX_POISON)
    }
  }

  /// Notes each global Mutex a controlled thread holds now: it orders what the scheduler never sees.
  ///
  /// Its inlined lock stores the holder's thread id in its word, and no call shows it; a
  /// thread running under it at a scheduling point is how the scheduler learns of it.
  func noteGlobalMutexesHeld() {
    guard let globals = SynchronizationSymbols.executable?.globalMutexes, !globals.isEmpty else {
      return
    }
    // The word's owner bits (the kernel's FUTEX_TID_MASK), without its waiters flags.
    let ownerBits: UInt32 = 0x3FFF_FFFF
    for global in globals {
      let holder = rc_mutex_word_load(UnsafeRawPointer(bitPattern: global.address)) & ownerBits
      if holder != 0, threads.contains(where: { $0.systemID == holder }) {
        noteUnseen("the global Mutex '\(global.name)'")
      }
    }
  }

  /// Gives the modelled Mutexes back their free word once the schedule has ended, and their objects.
  func releaseMutexes() {
    for word in mutexWords.keys {
      _ = rc_mutex_word_replace(UnsafeMutableRawPointer(bitPattern: word), RC_MUTEX_POISON, 0)
    }
    mutexWords = [:]
    for owner in mutexOwners { owner.release() }
    mutexOwners = []
  }

  /// A Mutex's slow path: a lock, try or unlock of a modelled Mutex, or a lock of one the scheduler does not see.
  fileprivate func mutexSlow(
    _ word: UInt, _ operation: rc_mutex_operation, threadID: UInt32
  ) -> rc_mutex_outcome {
    let pointer = UnsafeMutableRawPointer(bitPattern: word)
    if let property = mutexWords[word], rc_mutex_word_load(pointer) == RC_MUTEX_POISON {
      let lock = state(ofLock: word, kind: "mutex", label: property)
      switch operation {
      case RC_MUTEX_LOCK:
        acquire(lock, recursive: false)
        return RC_MUTEX_TAKEN
      case RC_MUTEX_TRY_LOCK:
        return tryAcquire(lock, recursive: false) ? RC_MUTEX_TAKEN : RC_MUTEX_BUSY
      default:
        release(lock)
        return RC_MUTEX_TAKEN
      }
    }
    // A Mutex outside the objects this schedule allocated (a global, say), held by another
    // thread: its fast paths order what the scheduler never sees.
    let global = SynchronizationSymbols.executable?.globalMutexes.first { $0.address == word }
    // Numbered, not by address: the same seed gives the same trace and report.
    let name =
      global.map { "global Mutex '\($0.name)'" }
      ?? state(ofLock: word, kind: "mutex", label: nil).name
    noteUnseen(global != nil ? "the \(name)" : "a Mutex outside the objects the schedule made")
    // Only a lock would wait in the kernel, for a thread the scheduler may have parked.
    guard operation == RC_MUTEX_LOCK else { return RC_MUTEX_FORWARD }
    let me = currentThread()
    while !rc_mutex_word_replace(pointer, 0, threadID) {
      record(me, "unseen \(name) waits")
      point(me, waiting: .lockWord(word))
    }
    // The word is swapped where the sanitizer does not look: it is told the acquire, which the
    // holder's inlined unlock released on the same word.
    if let pointer { rc_sanitizer_acquire(pointer) }
    record(me, "unseen \(name) acquire")
    return RC_MUTEX_TAKEN
  }

  /// The object allocated in this schedule that `address` lies in, with where it starts and its class's layout.
  private func object(at address: UInt) -> (start: UInt, layout: ClassLayout)? {
    guard
      let (start, object) = objects.first(where: {
        address >= $0.key && address < $0.key &+ $0.value.size
      })
    else { return nil }
    return (start, resources.layout(of: object.type))
  }
}

/// The interposer's hook table, pointing at one scheduler while it runs a schedule.
///
/// Sendable because the table never changes after `init`: each thread only reads it.
final class InterposerHooks: @unchecked Sendable {
  // @unchecked Sendable: the table never changes after `init`; threads only read it.
  private let table: UnsafeMutablePointer<rc_interposer_hooks>

  /// Points at `scheduler`, without keeping it: its threads, which use the table, end before it does.
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
        traced_access: { context, address, modify, pc in
          InterposerHooks.scheduler(context).tracedAccess(
            UInt(bitPattern: address), modify: modify, pc: UInt(bitPattern: pc))
        },
        rwlock_lock: { context, lock, forWriting in
          InterposerHooks.scheduler(context).lock(
            readerWriter: UInt(bitPattern: lock), forWriting: forWriting)
        },
        rwlock_trylock: { context, lock, forWriting in
          InterposerHooks.scheduler(context).tryLock(
            readerWriter: UInt(bitPattern: lock), forWriting: forWriting)
        },
        rwlock_unlock: { context, lock in
          InterposerHooks.scheduler(context).unlock(readerWriter: UInt(bitPattern: lock))
        },
        signal_try: { context, object, kind in
          InterposerHooks.scheduler(context).signalTry(object, kind)
        },
        signal_wait: { context, object, kind, timed in
          InterposerHooks.scheduler(context).signalWait(object, kind, timed: timed)
        },
        signal: { context, object, kind in
          InterposerHooks.scheduler(context).signal(object, kind)
        },
        condition_wait: { context, condition, mutex, timed in
          InterposerHooks.scheduler(context).conditionWait(
            condition, mutex: UInt(bitPattern: mutex), timed: timed)
        },
        allocated: { context, address, size, metadata in
          InterposerHooks.scheduler(context).allocated(
            UInt(bitPattern: address), size: UInt(size), metadata: metadata)
        },
        mutex_slow: { context, word, operation, threadID in
          InterposerHooks.scheduler(context).mutexSlow(
            UInt(bitPattern: word), operation, threadID: threadID)
        },
        thread_create: { context, routine in
          InterposerHooks.scheduler(context).createThread(routine!)
        },
        thread_created: { context, token, handle, created in
          InterposerHooks.scheduler(context).threadCreated(token!, handle: handle, created: created)
        },
        thread_run: { context, token in InterposerHooks.scheduler(context).runThread(token!) },
        thread_exit: { context in InterposerHooks.scheduler(context).exitThread() },
        thread_join: { context, handle in InterposerHooks.scheduler(context).joinThread(handle) },
        thread_detach: { context, handle in
          InterposerHooks.scheduler(context).detachThread(handle)
        },
        queue_after: { context, queue, delay, work in
          InterposerHooks.scheduler(context).setTimer(
            work, on: queue, after: delay < 0 ? nil : .nanoseconds(delay))
        },
        group_notify: { context, group, queue, work in
          InterposerHooks.scheduler(context).notify(work, on: queue, when: group!)
        },
        group_entering: { context, _ in InterposerHooks.scheduler(context).noteConditions() },
        apply: { context, queue, iterations, work in
          InterposerHooks.scheduler(context).apply(work!, iterations: iterations, on: queue)
        },
        sleep: { context, nanoseconds in
          InterposerHooks.scheduler(context).sleepVirtually(.nanoseconds(nanoseconds))
        },
        unseen: { context, primitive in
          InterposerHooks.scheduler(context).noteUnseen(String(cString: primitive!))
        }))
  }

  deinit {
    table.deinitialize(count: 1)
    table.deallocate()
  }

  /// Sends the calling thread's primitives to the scheduler while it runs code under test.
  func install() { rc_interposer_install(table) }

  private static func scheduler(_ context: UnsafeMutableRawPointer?) -> ControlledScheduler {
    Unmanaged<ControlledScheduler>.fromOpaque(context!).takeUnretainedValue()
  }
}

/// Whether this process can run schedule mode on unmodified code.
package enum Interposer {
  /// Whether every library's calls to the primitives bind to racecheck's interposer in this process.
  ///
  /// True in an executable (or a test bundle) that links RaceCheck on Linux; schedule mode
  /// refuses to run without it, since it would see no primitive at all.
  package static let isLinked = rc_interposer_is_linked()
}
