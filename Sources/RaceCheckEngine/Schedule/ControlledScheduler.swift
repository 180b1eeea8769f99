import CRaceCheckInterposer
import CRaceCheckSupport
import Foundation
import RaceCheckSync

#if canImport(Glibc)
  import Glibc
#endif

/// Runs controlled threads one at a time and decides, at every primitive's scheduling point, which runs next.
///
/// Coyote's shape: each column of the scenario and each async block is a real thread,
/// parked on its own semaphore except when the strategy picks it. Only the picked
/// thread runs, so the scheduler's state needs no lock: each hand-off (a semaphore
/// signal, then a wait) orders everything one thread did before the next one starts.
/// The primitives' semantics live here: queue admission in GCD's order, lock ownership,
/// and the vector clocks that find accesses no primitive orders.
final class ControlledScheduler: SyncScheduler, @unchecked Sendable {
  // @unchecked Sendable: one thread runs at a time; each semaphore hand-off orders its steps.
  /// What a thread waits for before its next step can run.
  enum Wait {
    case none
    case admission(QueueState, QueueItem)
    case lock(LockState)
    /// A read lock of a reader-writer lock: no writer holds it.
    case readLock(LockState)
    case join([Int])
    case gate(Gate)
    /// A signal of a semaphore, group or condition after its `generation` was `since`; a timed wait may also time out.
    case signal(SignalState, since: Int, timed: Bool)
    /// The lock word of a Mutex the scheduler does not model, at this address, to be free.
    case lockWord(UInt)
    /// Something only the scheduler's own bookkeeping tells: a timer's turn, a group's emptiness.
    case condition(Condition)
  }

  /// A semaphore, group or condition: how often controlled threads signaled it, and the clock they released.
  final class SignalState {
    let name: String
    var generation = 0
    var clock = VectorClock()
    /// For a condition: the thread that signalled it while no thread waited, a signal nothing received.
    var lostSignalFrom: String?

    init(name: String) {
      self.name = name
    }
  }

  /// Holds threads back until one thread opens it, handing them its clock.
  final class Gate {
    var isOpen = false
    var clock = VectorClock()
  }

  /// One controlled thread; only the thread the scheduler picked touches it, so hand-offs order every access.
  final class ControlledThread: @unchecked Sendable {
    // @unchecked Sendable: only the picked thread touches it; hand-offs order the accesses.
    let id: Int
    let name: String
    let semaphore = DispatchSemaphore(value: 0)
    var wait: Wait = .none
    /// What its next step touches, as the scheduling point it waits at says (``StepFootprint``).
    var nextStep: StepFootprint = .unknown
    /// The addresses of the locks it holds: any step of it may release one without a scheduling point first.
    var heldLocks: [UInt] = []
    /// The identity of the executor it ran Swift concurrency code on at its last scheduling point, 0 for none or the generic one.
    var executorHeld: UInt = 0
    /// What every step of the Swift concurrency job it runs touches beyond what its calls say: the group of a group's child task (``noteRuntimeTouches(of:)``).
    var jobTouches: [StepFootprint.Touch] = []
    var finished = false
    var clock = VectorClock()
    /// The kernel's id of the thread, which a `Mutex` it holds keeps in its lock word; 0 until it starts.
    var systemID: UInt32 = 0
    /// The queue blocks this thread is running, innermost last.
    var blocks: [(queue: QueueState, item: QueueItem)] = []
    /// How many locks it holds, each counted once however often it holds it.
    var locksHeld: Int { heldLocks.count }
    /// Counts the operations or blocks this thread has started; an access belongs to the one running.
    var activity = 0
    /// Whether the running operation has already taken and released a lock or touched an atomic.
    var synchronizedInActivity = false
    /// Whether an operation or a block is running on it.
    var isBusy = false
    /// The history position of the call it runs, or, for an async block, of the call that submitted it.
    var call: Int?
    /// The call whose return it waits for in racecheck's own wait (an `async` call's task, a completion handler), while it does.
    var awaitedReturn: String?
    /// The queues the running call has left by `sync`, each with how many blocks it had started then.
    var queuesLeft: [(queue: QueueState, startsThen: Int)] = []
    /// The handle code under test holds for it, when its `pthread_create` made it.
    var handle: pthread_t?
    /// Whether the system reclaims its real thread as it ends: it was made detached, or the code under test joined or detached it.
    var reclaimed = false
    /// Whether the schedule may end with it still waiting, as a program ends: a group's notification,
    /// which a group never empty never sends, or a thread code under test started, waiting for work.
    var mayNeverRun = false
    /// Its whole life, not yet handed to a real thread: it starts there when first given the turn.
    var lifeToStart: UncheckedBox<() -> Void>?

    init(id: Int, name: String) {
      self.id = id
      self.name = name
    }
  }

  /// A block submitted to a queue, or a `sync` waiting to enter it.
  final class QueueItem {
    let thread: Int
    /// Whether GCD treats it as a barrier: every block of a serial queue, a flagged one on a custom concurrent queue.
    let barrier: Bool
    /// Whether the code asked for a barrier.
    let flaggedBarrier: Bool

    init(thread: Int, barrier: Bool, flaggedBarrier: Bool) {
      self.thread = thread
      self.barrier = barrier
      self.flaggedBarrier = flaggedBarrier
    }
  }

  /// A queue's waiting and running blocks and the clocks its blocks release.
  final class QueueState {
    let name: String
    let isConcurrent: Bool
    let isGlobal: Bool
    var pending: [QueueItem] = []
    var running: [QueueItem] = []
    /// Every finished block's clock: a barrier starts after all of them.
    var allEnds = VectorClock()
    /// The last barrier's clock: a non-barrier block starts after it.
    var lastBarrierEnd = VectorClock()
    /// Every block started on the queue, in order: the thread that ran it and the call it ran for.
    var starts: [(thread: Int, call: Int?)] = []

    /// For the queue of an `async` call's task (``CallExecutor``), the name of the one column its blocks share in a trace.
    var taskColumn: String?

    /// The queue's identity while the schedule runs, for what a step touches (``StepFootprint``).
    var identity: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    init(_ queue: QueueIdentity) {
      name = queue.label
      isConcurrent = queue.isConcurrent
      isGlobal = queue.isGlobal
    }

    /// Whether a block submitted with the barrier flag or without runs alone: every block of a serial queue does, a barrier does on a concurrent queue but the global ones.
    func runsAlone(flagged: Bool) -> Bool {
      !isConcurrent || (flagged && !isGlobal)
    }

    /// Whether `item` may start now, in GCD's order.
    func canStart(_ item: QueueItem) -> Bool {
      guard let index = pending.firstIndex(where: { $0 === item }) else { return false }
      if item.barrier { return index == 0 && running.isEmpty }
      return !pending[..<index].contains { $0.barrier } && !running.contains { $0.barrier }
    }
  }

  /// A lock's or mutex's owner and released clock.
  final class LockState {
    let name: String
    let address: UInt
    var owner: Int?
    /// How many times the owner holds it: more than once only for a recursive lock.
    var holds = 0
    /// The threads holding a reader-writer lock for reading, each with how many times.
    var readers: [Int: Int] = [:]
    var clock = VectorClock()

    init(name: String, address: UInt) {
      self.name = name
      self.address = address
    }
  }

  /// An object code under test allocated: its size and class.
  struct AllocatedObject {
    var size: UInt
    var type: AnyClass
  }

  /// A cell's or a stored property's last write and the reads since it, for race detection; an atomic's clock.
  final class VariableState {
    let name: String
    var clock = VectorClock()
    var lastWrite: Access?
    var reads: [Int: Access] = [:]

    init(name: String) {
      self.name = name
    }
  }

  /// One access to a cell, with what synchronized it.
  struct Access {
    var thread: Int
    var epoch: Int
    var activity: Int
    /// Whether it ran in an operation or a block; one outside them never races.
    var inActivity: Bool
    var step: Int
    var kind: SyncAccess
    var context: AccessContext
    /// The innermost queue block the access ran in, and its queue.
    var block: (item: QueueItem, queue: QueueState)?

    /// Whether the block or operation the access ran in is still running.
    func isStillRunning(in threads: [ControlledThread]) -> Bool {
      if let block { return block.queue.running.contains { $0 === block.item } }
      let thread = threads[self.thread]
      return !thread.finished && thread.isBusy && thread.activity == activity
    }
  }

  private let strategyBox: StrategyBox
  private let maxSteps: Int
  /// The fault a racecheck test asked this scheduler to commit in its own code.
  var injectedFault: ScheduleSettings.InjectedFault?
  /// Whether a race needs no more than two accesses nothing orders, as under partial-order reduction and its replays (``checkRace(on:by:_:step:)``).
  var judgesRacesByOrderAlone = false
  /// The calling thread's controlled thread, if it has one: a key made once, because a thread a
  /// deadlocked schedule leaves parked keeps its value for good.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()
  private let done = DispatchSemaphore(value: 0)

  private(set) var threads: [ControlledThread] = []
  private(set) var steps: [InterleavingTrace.Step] = []
  private(set) var choices: [Int] = []
  /// The positions in ``choices`` where another thread was chosen although the running one could go on.
  private(set) var preemptionSteps: [Int] = []
  /// The step of the first expectation of an explored body that failed, if one did.
  private var firstFailedExpectationStep: Int?
  private(set) var race: DataRace?
  private(set) var deadlock: Deadlock?
  private(set) var findings: [Finding] = []
  /// The reads outside every queue, after leaving one, that another call's block on the queue preceded.
  private(set) var readsAfterLeaving: [ReadAfterLeaving] = []
  private(set) var cutOff = false
  /// What the running thread touched since its last scheduling point with no point of its own: the locks it released, the concurrency runtime's state it changed.
  var touchedUnseenInStep: [StepFootprint.Touch] = []
  /// The task group each task made in a group this schedule belongs to, by the task's address.
  var groupsOfTasks: [UInt: UInt] = [:]
  /// The main actor's executor identity: its jobs run on the main queue, which orders them already.
  let mainExecutorIdentity = UInt(rc_main_executor_identity())
  private var queues: [UInt: QueueState] = [:]
  private var locks: [UInt: LockState] = [:]
  /// Semaphores, groups and conditions by address.
  var signals: [UInt: SignalState] = [:]
  /// Cells, atomics and, under the interposer, stored properties, by address.
  var variables: [UInt: VariableState] = [:]
  /// The objects code under test allocated in this schedule, by address, to name their stored properties.
  var objects: [UInt: AllocatedObject] = [:]
  /// By function address, whether a dispatched function runs a Swift concurrency job (``runsAConcurrencyJob(_:)``).
  var concurrencyJobFunctions: [UInt: Bool] = [:]
  /// The lock words of the Mutexes the scheduler models, by address, with their properties' names.
  ///
  /// Each is kept at `RC_MUTEX_POISON` while the schedule runs (see ``point(_:waiting:)``).
  var mutexWords: [UInt: String] = [:]
  /// The objects holding ``mutexWords``, kept alive so that the scheduler never writes to freed memory.
  var mutexOwners: [Unmanaged<AnyObject>] = []
  /// What the code under test synchronizes through that the scheduler cannot see, in the order found.
  ///
  /// Accesses that it may order are not reported as races: vector clocks without those
  /// edges would accuse correct code.
  private(set) var unseenSynchronization: [String] = []
  /// The code the schedule's C threads started in and were created from, by address: its plain memory is out of sight unless traced (``UntracedCode``).
  var codeRun: Set<UInt> = []
  /// The return addresses of the traced loads and stores the schedule saw, which tell the functions built with tracing.
  var tracedCode: Set<UInt> = []
  /// The primitives' objects, kept alive so that no other object takes an address while the schedule runs.
  private var retained: [UInt: AnyObject] = [:]
  private var nameCounts: [String: Int] = [:]
  /// The `async` calls' tasks seen so far, which numbers their columns.
  private var taskCount = 0
  /// The timers `asyncAfter` set, and how far virtual time has gone.
  var virtualTime = VirtualTime()
  private var ended = false
  /// Runs each controlled thread's work, when set: an exploration collects the expectations that fail on its threads.
  var runsEachThread: ((() -> Void) -> Void)?
  /// Told of every change to the trace as it happens, before the step's effect: a child streams them to its parent.
  var traceObserver: ((InterleavingTrace.Event) -> Void)?

  /// Holds the strategy so that its state carries from one schedule to the next.
  final class StrategyBox {
    var strategy: any ScheduleStrategy
    init(_ strategy: any ScheduleStrategy) { self.strategy = strategy }
  }

  /// Where its threads run: all on the first CPU the process may use.
  private var placement: ThreadPlacement { resources.placement }

  /// The interposer's hooks into this scheduler, which each of its threads installs for itself.
  private(set) lazy var interposerHooks = InterposerHooks(self)

  /// What this schedule shares with the check's others: parked threads, class layouts.
  let resources: ScheduleResources

  init(strategy: StrategyBox, maxSteps: Int, resources: ScheduleResources = ScheduleResources()) {
    strategyBox = strategy
    self.maxSteps = maxSteps
    self.resources = resources
  }

  // MARK: Running a schedule

  /// Runs schedule `index` with `body` as thread 0, and returns false when the strategy has none left.
  ///
  /// Returns when every controlled thread has finished, or when the schedule deadlocked or
  /// ran past its step bound; the threads stuck then stay parked for good.
  ///
  /// With `rootOnMainThread`, thread 0 runs on the process's main thread, handed to it
  /// through the main queue, which the caller must not be blocking (see ``MainThreadRunner``).
  func runSchedule(
    _ index: Int, rootOnMainThread: Bool = false, body: @escaping (ControlledThread) -> Void
  ) -> Bool {
    guard strategyBox.strategy.beginSchedule(index) else { return false }
    SchedulerHook.install(self)
    defer { SchedulerHook.uninstall(self) }
    let root = spawn(
      name: "Thread 0", clock: VectorClock(), wait: .none, onMainThread: rootOnMainThread,
      body: body)
    giveTurn(to: root)
    done.wait()
    reclaimThreadsLeftJoinable()
    releaseMutexes()
    reportUnseenTouches()
    strategyBox.strategy.endSchedule(steps: choices.count, waiting: footprints())
    return true
  }

  /// Makes a controlled thread, parked until the strategy picks it.
  @discardableResult
  func spawn(
    name: String, clock: VectorClock, wait: Wait, firstStep: StepFootprint = .unknown,
    onMainThread: Bool = false, body: @escaping (ControlledThread) -> Void
  ) -> ControlledThread {
    // A parked thread of the pool takes the life when the strategy first picks it: starting
    // it now would only wake it to wait for that turn, two hand-offs for nothing.
    let startsOnTurn = !onMainThread && resources.threads.reusesThreads
    let (controlled, run) = makeThread(
      name: name, clock: clock, wait: wait, firstStep: firstStep, onMainThread: onMainThread,
      waitsForFirstTurn: !startsOnTurn, body: body)
    if onMainThread {
      // Forwarded, not scheduled: the caller is not a controlled thread.
      DispatchQueue.main.async { run.value() }
    } else if startsOnTurn {
      controlled.lifeToStart = run
    } else {
      resources.threads.run(run.value)
    }
    return controlled
  }

  /// Makes a controlled thread and what runs it, its whole life, on the real thread the caller starts.
  func makeThread(
    name: String, clock: VectorClock, wait: Wait, firstStep: StepFootprint = .unknown,
    onMainThread: Bool = false, waitsForFirstTurn: Bool = true,
    body: @escaping (ControlledThread) -> Void
  ) -> (ControlledThread, run: UncheckedBox<() -> Void>) {
    let controlled = ControlledThread(id: threads.count, name: name)
    controlled.nextStep = firstStep
    traceObserver?(.thread(name))
    controlled.clock = clock
    controlled.clock.tick(controlled.id)
    // The new thread starts after what its maker did (its clock says so for an async block).
    SanitizerOrder.release(controlled)
    controlled.wait = wait
    threads.append(controlled)
    strategyBox.strategy.threadCreated(controlled.id)
    let key = Self.key
    // Made here, on the one thread that runs, not by the new threads, which start at once.
    let hooks = interposerHooks
    let placement = placement
    let start = UncheckedBox(body)
    let wrapper = runsEachThread
    let run = { [self] in
      let body = start.value
      // The kernel keeps 15 bytes of a name, and a crash report shows that name.
      if !onMainThread { _ = rc_set_thread_name("rc-sched-\(controlled.id)") }
      pthread_setspecific(key, Unmanaged.passUnretained(controlled).toOpaque())
      controlled.systemID = rc_thread_system_id()
      // The scheduler's own code; the code under test runs in subject mode (see `asSubject`).
      _ = rc_interposer_set_mode(RC_MODE_SCHEDULER)
      hooks.install()
      // Only one of them runs at a time: on one CPU, a hand-off wakes a thread where the last
      // one stopped, instead of waiting for another core, which a busy machine may not free.
      placement.pin(thread: 0)
      if waitsForFirstTurn { controlled.semaphore.wait() }
      SanitizerOrder.acquire(controlled)
      controlled.wait = .none
      if let wrapper { wrapper { body(controlled) } } else { body(controlled) }
      finish(controlled)
      // Thread Sanitizer, which hides the scheduler's code, wants a thread to end seen.
      _ = rc_interposer_set_mode(RC_MODE_UNCONTROLLED)
      // The thread goes on, serving its queue or parked for a later schedule: it leaves as it came.
      pthread_setspecific(key, nil)
      rc_interposer_install(nil)
      if onMainThread { placement.release() }
    }
    return (controlled, UncheckedBox(run))
  }

  func controlsCurrentThread() -> Bool {
    pthread_getspecific(Self.key) != nil
  }

  /// Runs `wait`, racecheck's own wait on the calling controlled thread for `call` to return, so that a deadlock there names the call, not racecheck's semaphore.
  func waitingForReturn<T>(of call: String, _ wait: () throws -> T) rethrows -> T {
    let me = asScheduler { currentThread() }
    asScheduler { me.awaitedReturn = call }
    defer { asScheduler { me.awaitedReturn = nil } }
    return try wait()
  }

  func currentThread() -> ControlledThread {
    Unmanaged<ControlledThread>.fromOpaque(pthread_getspecific(Self.key)!).takeUnretainedValue()
  }

  /// A scheduling point: `me` waits for `wait`, the strategy picks a thread, and `me` returns once picked.
  ///
  /// `next` is what `me`'s step after the point touches, up to its next point; ``StepFootprint/unknown``
  /// where the caller cannot say, which costs a reducing search schedules but hides none.
  func point(_ me: ControlledThread, waiting wait: Wait = .none, next: StepFootprint = .unknown) {
    noteRuntimeTouches(of: me)
    me.wait = wait
    me.nextStep = next
    poisonMutexes()
    noteGlobalMutexesHeld()
    guard choices.count < maxSteps else {
      cutOff = true
      end()
      park(me)
    }
    let enabled = enabledThreads()
    guard !enabled.isEmpty else {
      if !onlyThreadsThatMayNeverRunWait {
        deadlock = deadlockOfBlockedThreads()
      }
      end()
      park(me)
    }
    let next = decide(enabled: enabled, running: me)
    if next != me.id {
      giveTurn(to: threads[next])
      me.semaphore.wait()
    }
    me.wait = .none
  }

  /// Ends `me`'s run and hands over to the next thread, or ends the schedule.
  func finish(_ me: ControlledThread) {
    noteRuntimeTouches(of: me)
    // A thread that joins this one is ordered after all it did.
    SanitizerOrder.release(me, slot: 1)
    me.finished = true
    me.wait = .none
    if onlyThreadsThatMayNeverRunWait {
      end()
      return
    }
    let enabled = enabledThreads()
    guard !enabled.isEmpty else {
      deadlock = deadlockOfBlockedThreads()
      end()
      return
    }
    let next = decide(enabled: enabled, running: me)
    giveTurn(to: threads[next])
  }

  /// Lets `thread` run: wakes it where it waits, or starts its life on a parked thread of the pool.
  private func giveTurn(to thread: ControlledThread) {
    if let life = thread.lifeToStart {
      thread.lifeToStart = nil
      resources.threads.run(life.value)
    } else {
      thread.semaphore.signal()
    }
  }

  /// Asks the strategy which of `enabled` runs next and records the choice, noting a preemption when `me` could have gone on.
  private func decide(enabled: [Int], running me: ControlledThread) -> Int {
    reportUnseenTouches()
    let next = strategyBox.strategy.choose(schedulingPoint(enabled: enabled, running: me))
    if next != me.id, enabled.contains(me.id) { preemptionSteps.append(choices.count) }
    choices.append(next)
    return next
  }

  /// The threads that may take the next step, by number: one pass and one array, at every point.
  private func enabledThreads() -> [Int] {
    var enabled: [Int] = []
    enabled.reserveCapacity(threads.count)
    for thread in threads where !thread.finished && isEnabled(thread) { enabled.append(thread.id) }
    return enabled
  }

  /// Whether every thread has finished but those the schedule may end without, which wait.
  private var onlyThreadsThatMayNeverRunWait: Bool {
    threads.allSatisfy { $0.finished || ($0.mayNeverRun && !isEnabled($0)) }
  }

  /// The point the strategy decides, with each unfinished thread's next step when it reads them.
  private func schedulingPoint(enabled: [Int], running me: ControlledThread) -> SchedulingPoint {
    SchedulingPoint(
      enabled: enabled, running: me.id, step: choices.count, footprints: footprints())
  }

  /// By thread, what each unfinished thread's next step touches, or nothing when the strategy does not read it.
  private func footprints() -> [StepFootprint?] {
    guard strategyBox.strategy.readsFootprints else { return [] }
    return threads.map { $0.finished ? nil : $0.nextStep.holding(locks: $0.heldLocks) }
  }

  /// Whether the strategy reads what each step touches, as partial-order reduction does.
  var strategyReadsFootprints: Bool { strategyBox.strategy.readsFootprints }

  /// Tells the strategy what the step just run touched with no scheduling point of its own, when it touched anything.
  private func reportUnseenTouches() {
    guard !touchedUnseenInStep.isEmpty else { return }
    if strategyBox.strategy.readsFootprints {
      strategyBox.strategy.stepTouched(touchedUnseenInStep)
    }
    touchedUnseenInStep = []
  }

  /// Notes that `me` no longer holds the lock at `address`, released with no scheduling point of its own.
  func dropHeldLock(_ address: UInt, of me: ControlledThread) {
    me.heldLocks.removeFirst(address)
    touchedUnseenInStep.append(.primitive(address))
  }

  private func end() {
    guard !ended else { return }
    ended = true
    done.signal()
  }

  /// Parks a thread that can never go on, for good: its stack holds the code under test mid-call.
  private func park(_ me: ControlledThread) -> Never {
    while true { me.semaphore.wait() }
  }

  private func isEnabled(_ thread: ControlledThread) -> Bool {
    switch thread.wait {
    case .none: return true
    case .admission(let queue, let item): return queue.canStart(item)
    case .lock(let lock): return lock.owner == nil && lock.readers.isEmpty
    case .readLock(let lock): return lock.owner == nil
    case .join(let ids): return ids.allSatisfy { threads[$0].finished }
    case .gate(let gate): return gate.isOpen
    case .signal(let state, let since, let timed): return timed || state.generation > since
    case .lockWord(let word): return rc_mutex_word_load(UnsafeRawPointer(bitPattern: word)) == 0
    case .condition(let condition): return condition.holds()
    }
  }

  func describeWait(_ thread: ControlledThread) -> Deadlock.Waiter {
    let what: String
    switch thread.wait {
    case .none: what = "nothing (it could run)"
    case .admission(let queue, let item):
      let holders = queue.running.map { threads[$0.thread].name }
      let ahead = queue.pending.prefix { $0 !== item }.map { threads[$0.thread].name }
      what =
        "to enter queue '\(queue.name)'"
        + (holders.isEmpty ? "" : ", which runs blocks of \(holders.joined(separator: ", "))")
        + (ahead.isEmpty ? "" : ", behind \(ahead.joined(separator: ", "))")
    case .lock(let lock), .readLock(let lock):
      let holders = (lock.owner.map { [$0] } ?? []) + lock.readers.keys.sorted()
      what =
        "for \(lock.name), held by "
        + (holders.isEmpty ? "no one" : holders.map { threads[$0].name }.joined(separator: ", "))
    case .gate: what = "for the init part to finish"
    case .signal(let state, _, let timed):
      // racecheck's wait for a call's task or handler is not the code's: the call is.
      what =
        thread.awaitedReturn.map {
          "for \($0) to return (its task or completion handler never ended)"
        }
        ?? "for a signal of \(state.name)" + (timed ? " (or its timeout)" : "")
    case .lockWord(let word):
      what =
        "for a Mutex at 0x\(String(word, radix: 16)), which code the scheduler does not see holds"
    case .condition(let condition): what = condition.description
    case .join(let ids):
      what =
        "for \(ids.filter { !threads[$0].finished }.map { threads[$0].name }.joined(separator: ", ")) to finish"
    }
    return Deadlock.Waiter(thread: thread.name, waitsFor: what)
  }

  // MARK: Trace

  /// Appends a step to the trace and returns its index.
  @discardableResult
  func record(_ thread: ControlledThread, _ text: String, isOperation: Bool = false) -> Int {
    let step = InterleavingTrace.Step(thread: thread.id, text: text, isOperation: isOperation)
    steps.append(step)
    traceObserver?(.step(step))
    return steps.count - 1
  }

  /// Replaces the text of step `index`, to add an operation's result once it returns.
  func amend(_ index: Int, _ text: String) {
    steps[index].text = text
    traceObserver?(.amend(index: index, text: text))
  }

  /// Marks, on the controlled thread that failed it, an expectation of an explored body that failed.
  ///
  /// The schedule has failed there: the trace ends with that step. What the test framework
  /// does to record the failure takes locks of its own, which are steps of no interest.
  func noteFailedExpectation(_ failure: ExpectationFailure) {
    guard controlsCurrentThread() else { return }
    let firstLine = failure.message.split(separator: "\n").first.map(String.init) ?? ""
    let index = record(currentThread(), "✗ " + firstLine)
    if firstFailedExpectationStep == nil { firstFailedExpectationStep = index }
  }

  var trace: InterleavingTrace {
    var trace = InterleavingTrace(
      threadNames: threads.map(\.name), steps: steps, schedule: choices,
      preemptionSteps: preemptionSteps)
    if let last = firstFailedExpectationStep {
      trace.steps = Array(steps[...last])
      trace.stepsAfterTheFailure = steps.count - last - 1
    }
    return trace
  }

  func name(_ kind: String, _ label: String?) -> String {
    nameCounts[kind, default: 0] += 1
    return label.map { "\(kind) '\($0)'" } ?? "\(kind) #\(nameCounts[kind]!)"
  }

  // MARK: Queues

  func state(of queue: QueueIdentity) -> QueueState {
    // A queue freed in the schedule may leave its address to a new one, which has its own label.
    if let state = queues[queue.address], state.name == queue.label { return state }
    let state = QueueState(queue)
    if let call = CallExecutor.call(namedBy: queue.label) {
      // A task runs one job at a time: its blocks read best as one column.
      taskCount += 1
      state.taskColumn = "Task \(taskCount): \(call)"
    }
    queues[queue.address] = state
    return state
  }

  private func note(_ queue: QueueState, barrier: Bool, _ me: ControlledThread) {
    guard barrier else { return }
    if queue.isGlobal {
      addFinding(
        .barrierOnGlobalQueue,
        "a barrier submitted to the global queue '\(queue.name)' by \(me.name) ran as an ordinary block"
      )
    } else if !queue.isConcurrent {
      addFinding(
        .barrierOnSerialQueue,
        "a barrier submitted to the serial queue '\(queue.name)' has no effect: its blocks never run in parallel"
      )
    }
  }

  private func addFinding(_ pattern: BugPattern, _ evidence: String) {
    guard !findings.contains(where: { $0.pattern == pattern }) else { return }
    findings.append(Finding(pattern: pattern, evidence: evidence))
  }

  private func item(_ queue: QueueState, thread: Int, flagged: Bool) -> QueueItem {
    QueueItem(thread: thread, barrier: queue.runsAlone(flagged: flagged), flaggedBarrier: flagged)
  }

  private func start(_ item: QueueItem, on queue: QueueState, _ me: ControlledThread) {
    queue.pending.removeAll { $0 === item }
    queue.running.append(item)
    queue.starts.append((me.id, me.call))
    me.clock.join(item.barrier ? queue.allEnds : queue.lastBarrierEnd)
    SanitizerOrder.acquire(queue, slot: item.barrier ? 0 : 1)
    me.blocks.append((queue, item))
  }

  private func finishBlock(_ item: QueueItem, on queue: QueueState, _ me: ControlledThread) {
    queue.running.removeAll { $0 === item }
    queue.allEnds.join(me.clock)
    SanitizerOrder.release(queue, slot: 0)
    if item.barrier {
      queue.lastBarrierEnd.join(me.clock)
      SanitizerOrder.release(queue, slot: 1)
    }
    me.clock.tick(me.id)
    me.blocks.removeLast()
  }

  func sync(on queue: SyncQueue, barrier: Bool, _ body: () -> Void) {
    asScheduler {
      retain(queue)
      enterQueue(state(of: QueueIdentity(queue)), barrier: barrier)
    }
    body()
    asScheduler { leaveQueue() }
  }

  /// Waits until the queue admits a `sync` block of the calling thread, which then runs it.
  func enterQueue(_ state: QueueState, barrier: Bool) {
    let me = currentThread()
    point(
      me, next: .enqueuesAndMayStart(state.identity, alone: state.runsAlone(flagged: barrier)))
    note(state, barrier: barrier, me)
    let item = item(state, thread: me.id, flagged: barrier)
    if let held = me.blocks.last(where: { $0.queue === state }), held.item.barrier || item.barrier {
      // GCD's `sync` waits for the blocks ahead, and this thread's own block is one of them.
      record(me, "queue.sync '\(state.name)' from a block already running on it: deadlock")
      deadlock = .syncOnCurrentQueue(thread: me.name, queue: state.name)
      end()
      park(me)
    }
    state.pending.append(item)
    if !state.canStart(item) {
      record(me, "queue.sync '\(state.name)' waits")
      point(
        me, waiting: .admission(state, item),
        next: .admission(state.identity, alone: item.barrier))
    }
    start(item, on: state, me)
    record(
      me,
      "queue.sync enter '\(state.name)'" + (item.barrier && state.isConcurrent ? " (barrier)" : ""))
  }

  /// Ends the `sync` block the calling thread runs, innermost first.
  func leaveQueue() {
    let me = currentThread()
    let (state, item) = me.blocks[me.blocks.count - 1]
    // Leaving the queue lets waiting blocks in: a visible effect, so other threads may run first.
    point(me, next: .admission(state.identity, alone: item.barrier))
    finishBlock(item, on: state, me)
    me.queuesLeft.append((state, state.starts.count))
    record(me, "queue.sync exit '\(state.name)'")
  }

  func async(on queue: SyncQueue, barrier: Bool, _ body: @escaping @Sendable () -> Void) {
    asScheduler {
      retain(queue)
      submit(to: state(of: QueueIdentity(queue)), barrier: barrier, body)
    }
  }

  /// Submits `body` to the queue, to run on a controlled thread of its own once the queue admits it.
  ///
  /// `afterEnd` runs once the block has left the queue: a group's leave happens then.
  @discardableResult
  func submit(
    to state: QueueState, barrier: Bool, _ body: @escaping () -> Void,
    afterEnd: (() -> Void)? = nil
  ) -> ControlledThread {
    let me = currentThread()
    point(me, next: .enqueues(state.identity))
    note(state, barrier: barrier, me)
    let item = item(state, thread: threads.count, flagged: barrier)
    state.pending.append(item)
    let admission = StepFootprint.admission(state.identity, alone: item.barrier)
    let block = spawn(
      name: state.taskColumn ?? "Block \(threads.count) on '\(state.name)'", clock: me.clock,
      wait: .admission(state, item), firstStep: admission
    ) { [self] block in
      start(item, on: state, block)
      block.activity += 1
      block.isBusy = true
      record(block, state.taskColumn != nil ? "job starts" : blockStep(barrier, "start", state))
      asSubject(body)
      // What runs after the block, a group's leave, goes through a scheduling point of its own.
      point(block, next: admission)
      finishBlock(item, on: state, block)
      record(block, state.taskColumn != nil ? "job ends" : blockStep(barrier, "end", state))
      afterEnd?()
    }
    block.call = me.call
    me.clock.tick(me.id)
    record(
      me,
      state.taskColumn != nil
        ? "enqueues a job → \(block.name)"
        : "queue.async\(barrier ? "(flags: .barrier)" : "") '\(state.name)' → \(block.name)")
    return block
  }

  /// A block's start or end as a trace step: `block start 'q'`, `barrier block end 'q'`.
  private func blockStep(_ barrier: Bool, _ edge: String, _ state: QueueState) -> String {
    (barrier ? "barrier block " : "block ") + edge + " '\(state.name)'"
  }

  // MARK: Locks

  func state(ofLock address: UInt, kind: String, label: String?) -> LockState {
    if let state = locks[address] { return state }
    let state = LockState(name: name(kind, label), address: address)
    locks[address] = state
    return state
  }

  private func retain(_ object: AnyObject) {
    retained[address(of: object)] = object
  }

  func acquire(_ lock: AnyObject, kind: SyncObjectKind, label: String?) {
    asScheduler {
      retain(lock)
      acquire(state(ofLock: address(of: lock), kind: kind.rawValue, label: label), recursive: false)
    }
  }

  /// Waits until `state` is free, or held by the calling thread when `recursive`, and takes it.
  func acquire(_ state: LockState, recursive: Bool) {
    let me = currentThread()
    if state.owner == me.id, recursive {
      point(me, next: .primitive(state.address))
      state.holds += 1
      record(me, "\(state.name) acquire again (recursive)")
      return
    }
    if state.owner == me.id {
      record(me, "\(state.name) acquire while holding it: deadlock")
      deadlock = .blocked([
        Deadlock.Waiter(thread: me.name, waitsFor: "for \(state.name), which it holds itself")
      ])
      end()
      park(me)
    }
    point(me, waiting: .lock(state), next: .primitive(state.address))
    take(state, me)
    record(me, "\(state.name) acquire")
  }

  /// Takes `state` if it is free, or held by the calling thread when `recursive`; returns whether it did.
  func tryAcquire(_ state: LockState, recursive: Bool) -> Bool {
    let me = currentThread()
    point(me, next: .primitive(state.address))
    if state.owner == me.id, recursive {
      state.holds += 1
      record(me, "\(state.name) try-acquire again (recursive)")
      return true
    }
    guard state.owner == nil else {
      record(me, "\(state.name) try-acquire fails")
      return false
    }
    take(state, me)
    record(me, "\(state.name) try-acquire")
    return true
  }

  private func take(_ state: LockState, _ me: ControlledThread) {
    state.owner = me.id
    state.holds = 1
    me.clock.join(state.clock)
    SanitizerOrder.acquire(state)
    me.heldLocks.append(state.address)
  }

  func release(_ lock: AnyObject, kind: SyncObjectKind) {
    asScheduler { release(state(ofLock: address(of: lock), kind: kind.rawValue, label: nil)) }
  }

  /// Gives up one hold of `state`, which the calling thread owns.
  func release(_ state: LockState) {
    let me = currentThread()
    if state.holds > 1 {
      state.holds -= 1
      record(me, "\(state.name) release (still held)")
      return
    }
    state.owner = nil
    state.holds = 0
    state.clock = me.clock
    SanitizerOrder.release(state)
    me.clock.tick(me.id)
    dropHeldLock(state.address, of: me)
    me.synchronizedInActivity = true
    record(me, "\(state.name) release")
  }

  /// Notes synchronization the scheduler cannot see, and drops a race found so far: it may have ordered it.
  func noteUnseen(_ synchronization: String) {
    guard !unseenSynchronization.contains(synchronization) else { return }
    unseenSynchronization.append(synchronization)
    race = nil
  }

  // MARK: Atomics and cells

  func yield(label: String) {
    asScheduler {
      let me = currentThread()
      point(me)
      record(me, "yield '\(label)'")
      noteReadAfterLeaving(by: me)
    }
  }

  /// Notes the blocks of other calls that entered a queue `me`'s call left, when `me` reads now outside every queue and lock.
  ///
  /// A yield marks a read of memory outside the primitives; done outside every queue after
  /// a `sync` left one, it reads what that queue guards without waiting for its blocks.
  func noteReadAfterLeaving(by me: ControlledThread) {
    guard me.isBusy, me.blocks.isEmpty, me.locksHeld == 0, let reader = me.call else { return }
    for left in me.queuesLeft {
      for start in left.queue.starts[left.startsThen...] where start.thread != me.id {
        guard let writer = start.call, writer != reader else { continue }
        let read = ReadAfterLeaving(queue: left.queue.name, reader: reader, writer: writer)
        if !readsAfterLeaving.contains(read) { readsAfterLeaving.append(read) }
      }
    }
  }

  func access(
    _ object: AnyObject, kind: SyncObjectKind, _ access: SyncAccess, label: String?,
    _ effect: () -> String
  ) {
    // Called from code under test: the scheduler's own work here is not.
    let previous = rc_interposer_set_mode(RC_MODE_SCHEDULER)
    defer { _ = rc_interposer_set_mode(previous) }
    let me = currentThread()
    retain(object)
    let cell = address(of: object)
    let state = variable(at: cell, kind: kind.rawValue, label: label)
    // An atomic's every access joins clocks with the ones before it: their order matters.
    point(
      me, next: kind == .atomic ? .primitive(cell) : access == .read ? .reads(cell) : .writes(cell))
    let value = effect()
    let verb: String
    switch access {
    case .read: verb = kind == .atomic ? "load" : "read"
    case .write: verb = kind == .atomic ? "store" : "write"
    case .update: verb = "update"
    }
    let step = record(me, "\(state.name) \(verb) \(access == .write ? "←" : "→") \(value)")
    if kind == .atomic {
      me.clock.join(state.clock)
      state.clock.join(me.clock)
      SanitizerOrder.acquire(state)
      SanitizerOrder.release(state)
      me.clock.tick(me.id)
      me.synchronizedInActivity = true
      return
    }
    checkRace(on: state, by: me, access, step: step)
  }

  /// The state of the variable at `address`, made on its first access.
  func variable(at address: UInt, kind: String, label: @autoclosure () -> String?)
    -> VariableState
  {
    if let known = variables[address] { return known }
    let state = VariableState(name: name(kind, label()))
    variables[address] = state
    return state
  }

  private func context(of thread: ControlledThread) -> AccessContext {
    AccessContext(
      thread: thread.name,
      blocks: thread.blocks.map {
        AccessContext.Block(
          queue: UInt(bitPattern: ObjectIdentifier($0.queue)), name: $0.queue.name,
          isConcurrent: $0.queue.isConcurrent, isGlobal: $0.queue.isGlobal,
          flaggedBarrier: $0.item.flaggedBarrier, isBarrier: $0.item.barrier)
      },
      locksHeld: thread.locksHeld, synchronizedEarlier: thread.synchronizedInActivity,
      queuesLeft: thread.queuesLeft.map { UInt(bitPattern: ObjectIdentifier($0.queue)) })
  }

  /// Reports a race of `me`'s access to `cell` with an earlier one of an operation or block that nothing orders before it.
  ///
  /// Searches of schedules report it only while the earlier one's operation or block still
  /// runs, so that the trace shows the two could have been simultaneous. Partial-order
  /// reduction runs one schedule of each class of equivalent ones, which may be one where that
  /// operation has ended: with ``judgesRacesByOrderAlone`` the race is reported from
  /// happens-before alone, which every schedule of the class shares. Both find a race in some
  /// schedule of a scenario alike: the class of a schedule with two unordered accesses holds
  /// one that runs the second right after the first.
  func checkRace(
    on cell: VariableState, by me: ControlledThread, _ kind: SyncAccess, step: Int
  ) {
    let access = Access(
      thread: me.id, epoch: me.clock[me.id], activity: me.activity,
      inActivity: me.isBusy || !me.blocks.isEmpty, step: step, kind: kind,
      context: context(of: me), block: me.blocks.last.map { ($0.item, $0.queue) })
    if race == nil, unseenSynchronization.isEmpty {
      var conflicts = cell.lastWrite.map { [$0] } ?? []
      if kind != .read { conflicts += cell.reads.values.sorted { $0.step < $1.step } }
      // A conflict counts when nothing orders it before this access and, unless the search
      // reduces, its operation or block is still running: the two could have been
      // simultaneous, and the trace shows it.
      if let earlier = conflicts.first(where: { other in
        other.thread != me.id && other.epoch > me.clock[other.thread]
          && (judgesRacesByOrderAlone ? other.inActivity : other.isStillRunning(in: threads))
      }) {
        race = DataRace(
          cell: cell.name, first: DataRace.Access(kind: earlier.kind, context: earlier.context),
          second: DataRace.Access(kind: access.kind, context: access.context))
      }
    }
    if kind == .read {
      cell.reads[me.id] = access
    } else {
      cell.lastWrite = access
      cell.reads = [:]
    }
  }
}

/// The address of `object`, which identifies it while the schedule keeps it alive.
private func address(of object: AnyObject) -> UInt {
  UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
}

/// Carries a value to a thread the scheduler starts: the hand-off orders every access, which the compiler cannot see.
struct UncheckedBox<Value>: @unchecked Sendable {
  // @unchecked Sendable: the scheduler's hand-off to the receiving thread orders accesses.
  let value: Value
  init(_ value: Value) { self.value = value }
}

extension Array where Element == UInt {
  /// Removes the first element equal to `value`, if there is one.
  mutating func removeFirst(_ value: UInt) {
    if let index = firstIndex(of: value) { remove(at: index) }
  }
}
