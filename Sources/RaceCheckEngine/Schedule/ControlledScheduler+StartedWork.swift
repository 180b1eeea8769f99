import CRaceCheckInterposer

#if canImport(Glibc)
  import Glibc
#endif

/// The work code under test starts for later or elsewhere: threads it creates, timers, group notifications, `concurrentPerform`.
///
/// Each runs on controlled threads, so its code is scheduled like a queue block's: a thread
/// `pthread_create` makes is one, a timer or a group notification is one that enqueues its
/// block when picked, and `dispatch_apply`'s iterations run on blocks of its queue. Time is
/// virtual: a timer may fire at any scheduling point once set, and a sleep is only a point.
extension ControlledScheduler {
  /// A wait only the scheduler's bookkeeping can end: a timer's turn, a group's emptiness.
  final class Condition {
    /// What the thread waits for, as a deadlock report says it.
    let description: String
    /// Whether the wait is over.
    let holds: () -> Bool

    init(_ description: String, holds: @escaping () -> Bool) {
      self.description = description
      self.holds = holds
    }
  }

  /// A thread `pthread_create` made: the controlled thread, and what runs it on the real one.
  final class StartedThread {
    let thread: ControlledThread
    let run: UncheckedBox<() -> Void>

    init(thread: ControlledThread, run: UncheckedBox<() -> Void>) {
      self.thread = thread
      self.run = run
    }
  }

  // MARK: Threads

  /// `pthread_create` from code under test: a controlled thread that runs `routine` once picked, ordered after its creator.
  ///
  /// Returns the token the creator and the new thread each give back once: the new thread may
  /// start, run and end before its creator hears that the real thread exists.
  func createThread(_ routine: UnsafeMutablePointer<rc_thread_routine>) -> UnsafeMutableRawPointer {
    let me = currentThread()
    point(me, next: .threadLocal)
    let detached = routine.pointee.detached
    codeRun.insert(UInt(bitPattern: routine.pointee.creator))
    if let function = routine.pointee.function {
      codeRun.insert(UInt(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self)))
    }
    let routine = UncheckedBox(routine)
    let (thread, run) = makeThread(
      name: "Thread \(threads.count) (pthread_create)", clock: me.clock, wait: .none,
      firstStep: .threadLocal
    ) { [self] thread in
      thread.activity += 1
      thread.isBusy = true
      record(thread, "thread starts")
      rc_thread_routine_run(routine.value)
      // Its end lets a join go on: a visible effect, so other threads may run first.
      point(thread, next: .primitive(identity(of: thread)))
      thread.isBusy = false
      record(thread, "thread ends")
    }
    thread.call = me.call
    thread.reclaimed = detached
    // A worker left waiting for work once the calls are done is no deadlock: nothing waits for it.
    thread.mayNeverRun = true
    me.clock.tick(me.id)
    record(me, "pthread_create → \(thread.name)")
    let token = Unmanaged.passRetained(StartedThread(thread: thread, run: run))
    _ = token.retain()
    return token.toOpaque()
  }

  /// The real `pthread_create` returned: the thread is known by `handle` from now, or, when that failed, never runs.
  func threadCreated(_ token: UnsafeMutableRawPointer, handle: pthread_t, created: Bool) {
    let started = Unmanaged<StartedThread>.fromOpaque(token)
    let thread = started.takeUnretainedValue().thread
    if created {
      thread.handle = handle
    } else {
      thread.finished = true
      record(currentThread(), "pthread_create fails: \(thread.name) never runs")
      started.release()
    }
    started.release()
  }

  /// The created thread's whole life as a controlled thread, on the real thread made for it.
  func runThread(_ token: UnsafeMutableRawPointer) {
    let started = Unmanaged<StartedThread>.fromOpaque(token)
    started.takeUnretainedValue().run.value()
    started.release()
  }

  /// `pthread_exit` on a thread `pthread_create` made: ends it as a controlled thread, which leaves it uncontrolled; false on another thread.
  func exitThread() -> Bool {
    let me = currentThread()
    guard me.handle != nil else { return false }
    point(me, next: .primitive(identity(of: me)))
    me.isBusy = false
    record(me, "thread exits (pthread_exit)")
    finish(me)
    // What the real exit runs (key destructors, unwinding) is no code under test.
    _ = rc_interposer_set_mode(RC_MODE_UNCONTROLLED)
    return true
  }

  /// `pthread_join` on a thread of this schedule waits until it ended, ordered after all it did; false for another thread.
  func joinThread(_ handle: pthread_t) -> Bool {
    // A handle of an ended thread may come back for a newer one: the newest is meant.
    guard let target = threads.last(where: { $0.handle == handle }) else { return false }
    let me = currentThread()
    target.reclaimed = true
    if !target.finished { record(me, "pthread_join \(target.name) waits") }
    point(me, waiting: .join([target.id]), next: .primitive(identity(of: target)))
    me.clock.join(target.clock)
    SanitizerOrder.acquire(target, slot: 1)
    record(me, "pthread_join \(target.name)")
    return true
  }

  /// `pthread_detach` of a thread of this schedule: the code under test will not join it.
  func detachThread(_ handle: pthread_t) {
    threads.last(where: { $0.handle == handle })?.reclaimed = true
  }

  /// Detaches the real threads of this schedule's `pthread_create`s that the code under test left joinable.
  ///
  /// A program that returns from `main` without joining its threads ends with them; a body
  /// explored thousands of times does not, and each such thread's stack and guard page stay
  /// mapped until someone joins it: after about 30,000 the process has no mappings left and
  /// `pthread_create` fails. Detached, an ended thread is reclaimed at once, and one still
  /// parked (a deadlocked schedule's) when it ends.
  func reclaimThreadsLeftJoinable() {
    for thread in threads where !thread.reclaimed {
      guard let handle = thread.handle else { continue }
      thread.reclaimed = true
      pthread_detach(handle)
    }
  }

  /// What a thread's end and a join of it both touch: the end is what lets the join go on.
  private func identity(of thread: ControlledThread) -> UInt {
    UInt(bitPattern: ObjectIdentifier(thread))
  }

  /// A sleep of code under test: a scheduling point and no more, since time is virtual.
  func sleepVirtually(_ duration: Duration) {
    let me = currentThread()
    point(me)
    record(me, "sleeps \(duration) (virtual: no time passes)")
  }

  // MARK: Timers

  /// `asyncAfter`: a thread that, when picked, enqueues the block on its queue; timers fire in deadline order.
  ///
  /// `delay` is nil for `DISPATCH_TIME_FOREVER`, when libdispatch never runs the block.
  func setTimer(_ work: rc_work, on queue: rc_queue, after delay: Duration?) {
    let me = currentThread()
    let state = state(of: QueueIdentity(queue))
    point(me, next: .primitive(state.identity))
    let work = UncheckedBox(work)
    guard let delay else {
      record(me, "queue.asyncAfter(never) '\(state.name)': the block never runs")
      rc_work_finish(work.value)
      return
    }
    let timer = virtualTime.setTimer(after: delay)
    let condition = Condition("for the timers due before it to fire") { [unowned self] in
      virtualTime.isNext(timer)
    }
    let thread = spawn(
      name: "Timer \(threads.count) on '\(state.name)'", clock: me.clock,
      wait: .condition(condition)
    ) { [self] thread in
      record(thread, "timer fires at \(timer.deadline) (virtual)")
      // Still pending while it enqueues, so that no timer due after it enqueues first.
      submit(
        to: state, barrier: false, running(work.value),
        afterEnd: { rc_work_finish(work.value) })
      virtualTime.fire(timer)
    }
    thread.call = me.call
    me.clock.tick(me.id)
    record(me, "queue.asyncAfter(+\(timer.delay)) '\(state.name)' → \(thread.name)")
  }

  // MARK: Group notifications

  /// `DispatchGroup.notify`: a thread that, once the group is empty, enqueues the block on its queue, ordered after every leave.
  func notify(_ work: rc_work, on queue: rc_queue, when group: UnsafeRawPointer) {
    let me = currentThread()
    let state = state(of: QueueIdentity(queue))
    let signals = signalState(group, RC_SIGNAL_GROUP)
    point(me, next: .primitive(UInt(bitPattern: group)))
    let work = UncheckedBox(work)
    let group = UncheckedBox(group)
    // Once empty, libdispatch has enqueued the notification: a later enter does not hold it
    // back. The group is looked at on every scheduling point and before every enter.
    var wasEmpty = false
    let condition = Condition("for \(signals.name) to be empty") {
      wasEmpty = wasEmpty || rc_group_is_empty(group.value)
      return wasEmpty
    }
    _ = condition.holds()
    let thread = spawn(
      name: "Notify \(threads.count) on '\(state.name)'", clock: me.clock,
      wait: .condition(condition)
    ) { [self] thread in
      thread.clock.join(signals.clock)
      SanitizerOrder.acquire(signals)
      rc_group_release(group.value)
      record(thread, "\(signals.name) is empty: notify")
      submit(
        to: state, barrier: false, { rc_work_run(work.value) },
        afterEnd: { rc_work_finish(work.value) })
    }
    thread.call = me.call
    thread.mayNeverRun = true
    me.clock.tick(me.id)
    record(me, "\(signals.name) notify '\(state.name)' → \(thread.name)")
  }

  /// Looks at what every thread waiting on a ``Condition`` waits for, now: a group about to be entered may be empty for the last time.
  func noteConditions() {
    for thread in threads where !thread.finished {
      if case .condition(let condition) = thread.wait { _ = condition.holds() }
    }
  }

  // MARK: concurrentPerform

  /// The blocks that run a `dispatch_apply`'s iterations: two, so that any two iterations may overlap.
  private static let applyWorkers = 2

  /// `dispatch_apply`: workers on the queue take the iterations in turn; the caller waits for them all.
  func apply(
    _ work: UnsafePointer<rc_apply_work>, iterations: Int, on queue: rc_queue
  ) {
    let me = currentThread()
    let state = state(of: QueueIdentity(queue))
    let claims = ApplyClaims(iterations: iterations)
    let work = UncheckedBox(work)
    record(me, "concurrentPerform(iterations: \(iterations)) '\(state.name)'")
    let workers = (0..<min(iterations, Self.applyWorkers)).map { _ in
      submit(to: state, barrier: false) { [self] in
        while let index = asScheduler({ claim(claims) }) {
          rc_apply_run(work.value, index)
        }
      }
    }
    guard !workers.isEmpty else { return }
    point(me, waiting: .join(workers.map(\.id)))
    for worker in workers {
      me.clock.join(worker.clock)
      SanitizerOrder.acquire(worker, slot: 1)
    }
    record(me, "concurrentPerform ends")
  }

  /// The next iteration for the calling worker, or nil when every one is taken.
  private func claim(_ claims: ApplyClaims) -> Int? {
    let me = currentThread()
    point(me, next: .primitive(UInt(bitPattern: ObjectIdentifier(claims))))
    guard claims.next < claims.iterations else { return nil }
    claims.next += 1
    record(me, "iteration \(claims.next - 1)")
    return claims.next - 1
  }

  /// The iterations of one `dispatch_apply` its workers have taken.
  private final class ApplyClaims {
    let iterations: Int
    var next = 0

    init(iterations: Int) {
      self.iterations = iterations
    }
  }
}

/// Virtual time: the timers `asyncAfter` set in one schedule, which fire in deadline order, and no real waiting.
///
/// A timer may fire at any scheduling point once set, so that a schedule explores its block
/// on either side of the other threads' steps; what orders timers is their deadlines, each
/// the virtual time when set (that of the last timer fired) plus its delay.
struct VirtualTime {
  /// One timer: its delay, when it is due, and the order it was set in, which orders timers due at once.
  final class Timer {
    /// The delay asked for, rounded to ``VirtualTime/resolution``.
    let delay: Duration
    let deadline: Duration
    let sequence: Int

    init(delay: Duration, deadline: Duration, sequence: Int) {
      self.delay = delay
      self.deadline = deadline
      self.sequence = sequence
    }
  }

  /// The deadline of the last timer that fired.
  private(set) var now: Duration = .zero
  private var pending: [Timer] = []
  private var timersSet = 0

  /// How finely deadlines are told apart: timers due within it of each other fire in the order set.
  ///
  /// The delay is the deadline the code computed from the real clock less the real time when
  /// the call arrives, a little less than the delay asked for; rounded to this, two timers set
  /// with the same delay fire in the order set, as libdispatch fires them, in every run.
  static let resolution: Duration = .milliseconds(10)

  /// Sets a timer due `delay` from now, rounded to ``resolution``.
  mutating func setTimer(after delay: Duration) -> Timer {
    let steps = ((delay + Self.resolution / 2) / Self.resolution).rounded(.down)
    let rounded = Self.resolution * Int(steps)
    let timer = Timer(delay: rounded, deadline: now + rounded, sequence: timersSet)
    timersSet += 1
    pending.append(timer)
    return timer
  }

  /// Whether `timer` is the pending timer due first, which alone may fire.
  func isNext(_ timer: Timer) -> Bool {
    pending.min { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) } === timer
  }

  /// Fires `timer`: virtual time moves on to its deadline.
  mutating func fire(_ timer: Timer) {
    pending.removeAll { $0 === timer }
    now = max(now, timer.deadline)
  }
}
