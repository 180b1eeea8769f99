import Foundation
import RaceCheck
import Testing

/// Counts on a `Thread` each call starts and waits for: unsynchronized, or under a lock.
final class ThreadStartingCounter: @unchecked Sendable {
  private var count = 0
  private let lock = NSLock()
  private let locks: Bool

  init(locks: Bool) {
    self.locks = locks
  }

  func incrementOnAThread() {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread { [self] in
      if locks {
        lock.withLock { count += 1 }
      } else {
        count += 1
      }
      done.signal()
    }
    thread.start()
    done.wait()
  }

  var value: Int { lock.withLock { count } }

  static func spec(locks: Bool) -> Spec<ThreadStartingCounter, Int> {
    let make: @Sendable () -> ThreadStartingCounter = { ThreadStartingCounter(locks: locks) }
    return Spec(locks ? "LockedThreadCounter" : "ThreadCounter", make: make, model: 0) {
      Operation(
        "increment", perform: { (counter: ThreadStartingCounter) in counter.incrementOnAThread() }
      ) {
        (state: inout Int) in state += 1
      }
      Operation("value", perform: { (counter: ThreadStartingCounter) in counter.value }) {
        (state: inout Int) in state
      }
    }
  }
}

/// What one call shares with the threads and blocks it starts, and no other call.
final class CallLocal<Value>: @unchecked Sendable {
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// Adds on threads made with `pthread_create` and joined with `pthread_join`: correct, and only if the join waits under the scheduler.
final class JoinedThreadCounter: Sendable {
  private func incrementOnAJoinedThread(_ count: CallLocal<Int>) {
    var thread = pthread_t()
    let created = pthread_create(
      &thread, nil,
      { argument in
        Unmanaged<CallLocal<Int>>.fromOpaque(argument!).takeRetainedValue().value += 1
        return nil
      }, Unmanaged.passRetained(count).toOpaque())
    precondition(created == 0)
    pthread_join(thread, nil)
  }

  /// Read by the joiner alone: each join orders it after that thread's write.
  func incrementTwice() -> Int {
    let count = CallLocal(0)
    incrementOnAJoinedThread(count)
    incrementOnAJoinedThread(count)
    return count.value
  }

  static let spec = Spec("JoinedThreadCounter", make: JoinedThreadCounter.init, model: 0) {
    Operation(
      "incrementTwice", perform: { (counter: JoinedThreadCounter) in counter.incrementTwice() }
    ) {
      (_: inout Int) in 2
    }
  }
}

/// Writes a value, and a timer's block writes it too: after the caller's write, or racing it.
final class DelayedWriter: Sendable {
  private let queue = DispatchQueue(label: "delayed")
  private let writesFirst: Bool

  init(writesFirst: Bool) {
    self.writesFirst = writesFirst
  }

  func write() {
    let done = DispatchSemaphore(value: 0)
    let value = CallLocal(0)
    if writesFirst { value.value = 2 }
    queue.asyncAfter(deadline: .now() + 0.5) {
      value.value = 1
      done.signal()
    }
    if !writesFirst { value.value = 2 }
    done.wait()
  }

  static func spec(writesFirst: Bool) -> Spec<DelayedWriter, Int> {
    let make: @Sendable () -> DelayedWriter = { DelayedWriter(writesFirst: writesFirst) }
    return Spec(writesFirst ? "DelayedWriter" : "RacingDelayedWriter", make: make, model: 0) {
      Operation("write", perform: { (writer: DelayedWriter) in writer.write() }) {
        (_: inout Int) in
      }
    }
  }
}

/// Waits five seconds for a timer, which virtual time makes no wait at all.
final class FiveSecondTimer: @unchecked Sendable {
  private let queue = DispatchQueue(label: "five seconds")

  func waitForTheTimer() -> Int {
    let done = DispatchSemaphore(value: 0)
    queue.asyncAfter(deadline: .now() + 5) { done.signal() }
    done.wait()
    return 1
  }

  static let spec = Spec("FiveSecondTimer", make: FiveSecondTimer.init, model: 0) {
    Operation("wait", perform: { (timer: FiveSecondTimer) in timer.waitForTheTimer() }) {
      (_: inout Int) in 1
    }
  }
}

/// Sets a 1 s timer, then a 5 s one, whose blocks append to a list on a serial queue: the 5 s one never runs first.
///
/// Virtual time moves only when a timer fires, so while both are pending the 5 s one is due
/// later. (Set in the other order, the 5 s timer may fire before the 1 s one is set: the
/// caller may be held up that long, and the scheduler explores it.)
final class TwoTimers: Sendable {
  private let queue = DispatchQueue(label: "timers")

  func setBoth() -> [Int] {
    let order = CallLocal([Int]())
    let done = DispatchGroup()
    for delay in [1, 5] {
      done.enter()
      queue.asyncAfter(deadline: .now() + .seconds(delay)) {
        order.value.append(delay)
        done.leave()
      }
    }
    done.wait()
    return order.value
  }

  static let spec = Spec("TwoTimers", make: TwoTimers.init, model: [Int]()) {
    Operation("setBoth", perform: { (timers: TwoTimers) in timers.setBoth() }) {
      (_: inout [Int]) in [1, 5]
    }
  }
}

/// Sums two blocks' results in a group's notification: registered after the blocks, or before them, when it may run first.
final class NotifiedSum: Sendable {
  private let lock = NSLock()
  private let queue = DispatchQueue(label: "summing", attributes: .concurrent)
  private let notifiesFirst: Bool

  init(notifiesFirst: Bool) {
    self.notifiesFirst = notifiesFirst
  }

  func sum() -> Int {
    let group = DispatchGroup()
    let done = DispatchSemaphore(value: 0)
    let results = CallLocal([Int]())
    let total = CallLocal(0)
    let notify = {
      group.notify(queue: self.queue) {
        total.value = self.lock.withLock { results.value.reduce(0, +) }
        done.signal()
      }
    }
    if notifiesFirst { notify() }
    for value in [1, 2] {
      queue.async(group: group) { self.lock.withLock { results.value.append(value) } }
    }
    if !notifiesFirst { notify() }
    done.wait()
    return total.value
  }

  static func spec(notifiesFirst: Bool) -> Spec<NotifiedSum, Int> {
    let make: @Sendable () -> NotifiedSum = { NotifiedSum(notifiesFirst: notifiesFirst) }
    return Spec(notifiesFirst ? "EarlyNotifiedSum" : "NotifiedSum", make: make, model: 0) {
      Operation("sum", perform: { (sum: NotifiedSum) in sum.sum() }) { (_: inout Int) in 3 }
    }
  }
}

/// Registers a notification of a group it never empties: the notification never comes, and nothing waits for it.
final class UnsentNotification: Sendable {
  func register() -> Int {
    let group = DispatchGroup()
    group.enter()
    group.notify(queue: .global()) { preconditionFailure("the group is never empty") }
    return 1
  }

  static let spec = Spec("UnsentNotification", make: UnsentNotification.init, model: 0) {
    Operation("register", perform: { (user: UnsentNotification) in user.register() }) {
      (_: inout Int) in 1
    }
  }
}

/// Starts a worker thread that waits for work no call gives it: left waiting, it is no deadlock.
final class IdleWorker: @unchecked Sendable {
  private let work = NSCondition()
  private var pending = 0

  init() {
    Thread { [self] in
      work.lock()
      while pending == 0 { work.wait() }
      work.unlock()
    }.start()
  }

  func count() -> Int { work.withLock { pending } }

  static let spec = Spec("IdleWorker", make: IdleWorker.init, model: 0) {
    Operation("count", perform: { (worker: IdleWorker) in worker.count() }) { (_: inout Int) in 0 }
  }
}

/// Counts on a thread that leaves with `Thread.exit()` once it signaled.
final class ExitingThreadCounter: @unchecked Sendable {
  private var count = 0
  private let lock = NSLock()

  func increment() {
    let done = DispatchSemaphore(value: 0)
    Thread { [self] in
      lock.withLock { count += 1 }
      done.signal()
      Thread.exit()
    }.start()
    done.wait()
  }

  var value: Int { lock.withLock { count } }

  static let spec = Spec("ExitingThreadCounter", make: ExitingThreadCounter.init, model: 0) {
    Operation("increment", perform: { (counter: ExitingThreadCounter) in counter.increment() }) {
      (state: inout Int) in state += 1
    }
    Operation("value", perform: { (counter: ExitingThreadCounter) in counter.value }) {
      (state: inout Int) in state
    }
  }
}

/// Hands a write to a queue and reads it back after a sleep, trusting the sleep to order them.
final class SleepingReader: Sendable {
  private let queue = DispatchQueue(label: "writer")

  func writeThenRead() -> Int {
    let value = CallLocal(0)
    queue.async { value.value = 1 }
    usleep(100_000)
    return value.value
  }

  static let spec = Spec("SleepingReader", make: SleepingReader.init, model: 0) {
    Operation("writeThenRead", perform: { (reader: SleepingReader) in reader.writeThenRead() }) {
      (_: inout Int) in 1
    }
  }
}

/// Waits for a block's write by polling memory the scheduler cannot see, sleeping between looks.
///
/// Only the sleep is a scheduling point: were it not one, the loop would never let the block run.
final class PollingReader: Sendable {
  private let queue = DispatchQueue(label: "writer")

  func writeThenPoll() -> Int {
    let flag = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    flag.initialize(to: 0)
    defer { flag.deallocate() }
    let address = UInt(bitPattern: flag)
    queue.async { UnsafeMutablePointer<Int>(bitPattern: address)!.pointee = 1 }
    while flag.pointee == 0 { usleep(1000) }
    return 1
  }

  static let spec = Spec("PollingReader", make: PollingReader.init, model: 0) {
    Operation("writeThenPoll", perform: { (reader: PollingReader) in reader.writeThenPoll() }) {
      (_: inout Int) in 1
    }
  }
}

/// Adds each iteration's index in `concurrentPerform`: unsynchronized, or under a lock.
final class ParallelTotal: Sendable {
  private let lock = NSLock()
  private let locks: Bool

  init(locks: Bool) {
    self.locks = locks
  }

  func addIterations() -> Int {
    let total = CallLocal(0)
    DispatchQueue.concurrentPerform(iterations: 3) { index in
      if locks {
        lock.withLock { total.value += index }
      } else {
        total.value += index
      }
    }
    return total.value
  }

  static func spec(locks: Bool) -> Spec<ParallelTotal, Int> {
    let make: @Sendable () -> ParallelTotal = { ParallelTotal(locks: locks) }
    return Spec(locks ? "LockedParallelTotal" : "ParallelTotal", make: make, model: 0) {
      Operation("add", perform: { (total: ParallelTotal) in total.addIterations() }) {
        (_: inout Int) in 3
      }
    }
  }
}

/// Makes a timer source and cancels it: its handlers would run outside the schedule.
final class SourceUser: @unchecked Sendable {
  func useASource() -> Int {
    let source = DispatchSource.makeTimerSource()
    source.setEventHandler {}
    source.resume()
    source.cancel()
    return 1
  }

  static let spec = Spec("SourceUser", make: SourceUser.init, model: 0) {
    Operation("use", perform: { (user: SourceUser) in user.useASource() }) { (_: inout Int) in 1 }
  }
}

/// Counts on a queue that targets a serial queue of its own, an order the scheduler does not follow.
final class TargetedCounter: @unchecked Sendable {
  private var count = 0
  private let queue = DispatchQueue(label: "counts", target: DispatchQueue(label: "counts' target"))

  func increment() -> Int {
    queue.sync {
      count += 1
      return count
    }
  }

  static let spec = Spec("TargetedCounter", make: TargetedCounter.init, model: 0) {
    Operation("increment", perform: { (counter: TargetedCounter) in counter.increment() }) {
      (state: inout Int) in
      state += 1
      return state
    }
  }
}

/// Sleeps in a task: `Task.sleep` enqueues the task after a delay, which virtual time handles like `asyncAfter`.
final class TaskNapper: Sendable {
  func nap() async -> Int {
    try? await Task.sleep(for: .seconds(5))
    return 1
  }

  static let spec = Spec("TaskNapper", make: TaskNapper.init, model: 0) {
    Operation("nap") { (napper: TaskNapper) in
      await napper.nap()
    } model: { (_: inout Int) in
      1
    }
  }
}

/// A schedule-mode configuration: two threads of one or two calls.
private func startedWorkConfiguration(seed: UInt64, operationsPerThread: Int = 1) -> Configuration {
  var configuration = Configuration(
    seed: seed,
    shape: .init(
      threads: 2, operationsPerThread: operationsPerThread, initialOperations: 0, postOperations: 0),
    scenarios: 10, reproDirectory: FileManagerTemporary.directory)
  configuration.scheduleSettings = ScheduleSettings(schedules: 30)
  configuration.shrinkTimeLimit = .seconds(1)
  configuration.minimizes = false
  return configuration
}

extension RaceCheckTestSuite {
  /// Threads, timers, group notifications and `concurrentPerform` that a call starts run under the schedule; what does not is reported.
  @Suite struct StartedWorkScheduleTests {
    @Test func threadsACallStartsRaceOnAnUnsynchronizedCounter() throws {
      let report = ThreadStartingCounter.spec(locks: false).check(startedWorkConfiguration(seed: 1))
      let failure = try #require(report.failure, "\(report)")
      let trace = try #require(failure.trace)
      #expect(trace.threadNames.contains { $0.hasSuffix("(pthread_create)") }, "\(trace.render())")
    }

    @Test func threadsACallStartsPassUnderALock() {
      let report = ThreadStartingCounter.spec(locks: true).check(startedWorkConfiguration(seed: 1))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aJoinedThreadIsWaitedForUnderTheScheduler() {
      let report = JoinedThreadCounter.spec.check(startedWorkConfiguration(seed: 2))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aTimersBlockRacesTheCallersLaterWrite() throws {
      let report = DelayedWriter.spec(writesFirst: false).check(startedWorkConfiguration(seed: 3))
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.trace?.threadNames.contains { $0.hasPrefix("Timer ") } == true)
    }

    @Test func theSameSeedGivesTheSameTraceOfThreadsAndTimersAndTheReproReplaysIt() throws {
      for spec in [
        ThreadStartingCounter.spec(locks: false) as any Checkable,
        DelayedWriter.spec(writesFirst: false),
      ] {
        let first = try #require(spec.check(startedWorkConfiguration(seed: 10)).failure)
        let again = try #require(spec.check(startedWorkConfiguration(seed: 10)).failure)
        #expect(again.trace == first.trace)
        let replay = try spec.replay(try Repro.read(from: try #require(first.reproPath)))
        #expect(replay.divergence == nil)
        #expect(replay.trace == first.trace)
      }
    }

    @Test func aTimersBlockAfterTheCallersWritePasses() {
      let report = DelayedWriter.spec(writesFirst: true).check(startedWorkConfiguration(seed: 3))
      #expect(report.verdict == .pass, "\(report)")
    }

    /// A real five-second wait would let a four-second limit run one schedule only.
    @Test func aFiveSecondTimerTakesNoTime() {
      var configuration = startedWorkConfiguration(seed: 4)
      configuration.scenarios = 2
      configuration.scheduleSettings = ScheduleSettings(schedules: 5)
      configuration.timeLimit = .seconds(4)
      let report = FiveSecondTimer.spec.check(configuration)
      #expect(report.verdict == .pass, "\(report)")
      #expect(report.invocations == 10, "\(report)")
    }

    @Test func aTimerDueLaterNeverFiresFirst() {
      let report = TwoTimers.spec.check(startedWorkConfiguration(seed: 5))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aNotificationRegisteredBeforeTheBlocksMayRunFirst() throws {
      let report = NotifiedSum.spec(notifiesFirst: true).check(startedWorkConfiguration(seed: 6))
      let failure = try #require(report.failure, "\(report)")
      // The notification ran under the schedule, not on libdispatch's threads.
      #expect(failure.trace?.threadNames.contains { $0.hasPrefix("Notify ") } == true)
    }

    @Test func aNotificationRegisteredAfterTheBlocksRunsLast() {
      let report = NotifiedSum.spec(notifiesFirst: false).check(startedWorkConfiguration(seed: 6))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aNotificationOfAGroupNeverEmptyIsNoDeadlock() {
      let report = UnsentNotification.spec.check(startedWorkConfiguration(seed: 6))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aThreadThatExitsEndsItsPartInTheSchedule() {
      let report = ExitingThreadCounter.spec.check(startedWorkConfiguration(seed: 12))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aSleepDoesNotOrderAReadAfterABlocksWrite() throws {
      let report = SleepingReader.spec.check(startedWorkConfiguration(seed: 13))
      let failure = try #require(report.failure, "\(report)")
      let steps = try #require(failure.trace).steps.map(\.text)
      #expect(steps.contains { $0.hasPrefix("sleeps 0.1 seconds") }, "\(steps)")
    }

    @Test func aLoopThatPollsWithASleepLetsTheOtherThreadsRun() {
      let report = PollingReader.spec.check(startedWorkConfiguration(seed: 13))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aStartedThreadLeftWaitingIsNoDeadlock() {
      let report = IdleWorker.spec.check(startedWorkConfiguration(seed: 11))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func concurrentPerformIterationsRaceOnAnUnsynchronizedTotal() throws {
      let report = ParallelTotal.spec(locks: false).check(startedWorkConfiguration(seed: 7))
      let failure = try #require(report.failure, "\(report)")
      let steps = try #require(failure.trace).steps.map(\.text)
      #expect(steps.contains("iteration 2"), "\(steps)")
    }

    @Test func concurrentPerformIterationsPassUnderALock() {
      let report = ParallelTotal.spec(locks: true).check(startedWorkConfiguration(seed: 7))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aDispatchSourceMakesTheVerdictInconclusiveNamingIt() throws {
      let report = SourceUser.spec.check(startedWorkConfiguration(seed: 8))
      let reason = try #require(report.inconclusiveReason, "\(report)")
      guard case .unseenSynchronization(let names) = reason else {
        Issue.record("expected unseen synchronization, got \(reason)")
        return
      }
      #expect(names.contains { $0.contains("dispatch source") }, "\(names)")
    }

    @Test func aTargetQueueMakesTheVerdictInconclusiveNamingIt() throws {
      let report = TargetedCounter.spec.check(startedWorkConfiguration(seed: 8))
      guard
        case .unseenSynchronization(let names) = try #require(
          report.inconclusiveReason, "\(report)")
      else {
        Issue.record("expected unseen synchronization: \(report)")
        return
      }
      #expect(names.contains { $0.contains("target queue") }, "\(names)")
    }

    /// As for `asyncAfter`, a real five-second sleep would let a four-second limit run one schedule only.
    @Test func taskSleepTakesNoTime() {
      var configuration = startedWorkConfiguration(seed: 9)
      configuration.scenarios = 2
      configuration.scheduleSettings = ScheduleSettings(schedules: 5)
      configuration.timeLimit = .seconds(4)
      let report = TaskNapper.spec.check(configuration)
      #expect(report.verdict == .pass, "\(report)")
      #expect(report.invocations == 10, "\(report)")
    }
  }
}
