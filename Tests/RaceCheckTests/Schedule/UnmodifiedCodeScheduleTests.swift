import Foundation
import RaceCheck
import Testing

/// An app developer's cache as commonly written: `sync` reads and barrier writes on a concurrent queue.
final class ThumbnailNames: @unchecked Sendable {
  private var names: [Int: Int] = [:]
  private let queue = DispatchQueue(label: "thumbnails", attributes: .concurrent)
  private let writesAreBarriers: Bool

  init(writesAreBarriers: Bool) {
    self.writesAreBarriers = writesAreBarriers
  }

  func name(for id: Int) -> Int? { queue.sync { names[id] } }

  func set(_ name: Int, for id: Int) {
    if writesAreBarriers {
      queue.async(flags: .barrier) { self.names[id] = name }
    } else {
      queue.async { self.names[id] = name }
    }
  }

  static func spec(writesAreBarriers: Bool) -> Spec<ThumbnailNames, Int?> {
    let make: @Sendable () -> ThumbnailNames = {
      ThumbnailNames(writesAreBarriers: writesAreBarriers)
    }
    let name = writesAreBarriers ? "ThumbnailNames" : "ThumbnailNamesNoBarrier"
    return Spec(name, make: make, model: nil as Int?) {
      Operation("get", perform: { (cache: ThumbnailNames) in cache.name(for: 0) }) {
        (state: inout Int?) in state
      }
      Operation(
        "set", .int(in: 1...2),
        perform: { (cache: ThumbnailNames, name: Int) in cache.set(name, for: 0) }
      ) { (state: inout Int?, name: Int) in state = name }
    }
  }
}

/// A counter guarded by a `DispatchSemaphore(value: 1)` used as a lock: correct.
final class SemaphoreCounter: @unchecked Sendable {
  private var count = 0
  private let semaphore = DispatchSemaphore(value: 1)

  func increment() {
    semaphore.wait()
    count += 1
    semaphore.signal()
  }

  var value: Int {
    semaphore.wait()
    defer { semaphore.signal() }
    return count
  }

  static let spec = Spec("SemaphoreCounter", make: SemaphoreCounter.init, model: 0) {
    Operation("increment", perform: { (counter: SemaphoreCounter) in counter.increment() }) {
      (state: inout Int) in state += 1
    }
    Operation("value", perform: { (counter: SemaphoreCounter) in counter.value }) {
      (state: inout Int) in state
    }
  }
}

/// Appends with `async(group:)` on a serial queue and waits for the group: correct.
///
/// (Two blocks of one call would not be: a `count` between them sees half the call, and
/// schedule mode finds it.)
final class GroupedAppender: @unchecked Sendable {
  private var elements: [Int] = []
  private let queue = DispatchQueue(label: "appender")

  func appendTwice(_ element: Int) {
    let group = DispatchGroup()
    queue.async(group: group) { self.elements += [element, element] }
    group.wait()
  }

  var count: Int { queue.sync { elements.count } }

  static let spec = Spec("GroupedAppender", make: GroupedAppender.init, model: 0) {
    Operation(
      "appendTwice", .int(in: 0...1),
      perform: { (appender: GroupedAppender, element: Int) in appender.appendTwice(element) }
    ) { (state: inout Int, _: Int) in state += 2 }
    Operation("count", perform: { (appender: GroupedAppender) in appender.count }) {
      (state: inout Int) in state
    }
  }
}

/// Work handed to another queue and waited for: with a semaphore, with an `NSCondition`, and under a reader-writer lock.
final class HandedOffCounter: @unchecked Sendable {
  private var count = 0
  private let queue = DispatchQueue(label: "worker")
  private let counted = NSCondition()
  private let lock: UnsafeMutablePointer<pthread_rwlock_t> = {
    let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    pthread_rwlock_init(lock, nil)
    return lock
  }()

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deallocate()
  }

  private func add() {
    pthread_rwlock_wrlock(lock)
    count += 1
    pthread_rwlock_unlock(lock)
  }

  /// Adds one on the worker queue and waits on a semaphore the block signals.
  func incrementWaitingOnASemaphore() {
    let done = DispatchSemaphore(value: 0)
    queue.async {
      self.add()
      done.signal()
    }
    done.wait()
  }

  /// Adds one on the worker queue and waits on a condition until the block says it finished.
  func incrementWaitingOnACondition() {
    final class Flag: @unchecked Sendable { var isSet = false }
    let finished = Flag()
    queue.async {
      self.add()
      self.counted.lock()
      finished.isSet = true
      self.counted.signal()
      self.counted.unlock()
    }
    counted.lock()
    while !finished.isSet { counted.wait() }
    counted.unlock()
  }

  var value: Int {
    pthread_rwlock_rdlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return count
  }

  static let spec = Spec("HandedOffCounter", make: HandedOffCounter.init, model: 0) {
    Operation(
      "incrementWaitingOnASemaphore",
      perform: { (counter: HandedOffCounter) in counter.incrementWaitingOnASemaphore() }
    ) { (state: inout Int) in state += 1 }
    Operation(
      "incrementWaitingOnACondition",
      perform: { (counter: HandedOffCounter) in counter.incrementWaitingOnACondition() }
    ) { (state: inout Int) in state += 1 }
    Operation("value", perform: { (counter: HandedOffCounter) in counter.value }) {
      (state: inout Int) in state
    }
  }
}

/// A view counter whose getter and setter each take an `NSLock`, incremented by a get and a set.
final class LockedViewCounter: @unchecked Sendable {
  private var views = 0
  private let lock = NSLock()

  var count: Int {
    get { lock.withLock { views } }
    set { lock.withLock { views = newValue } }
  }

  static let spec = Spec("LockedViewCounter", make: LockedViewCounter.init, model: 0) {
    Operation("increment", perform: { (counter: LockedViewCounter) in counter.count += 1 }) {
      (state: inout Int) in state += 1
    }
    Operation("count", perform: { (counter: LockedViewCounter) in counter.count }) {
      (state: inout Int) in state
    }
  }
}

/// A small schedule-mode configuration: two threads of two calls, one call before and after.
///
/// `minimizes: false` for comparing runs: shrinking has a time limit, so what it reaches
/// depends on how busy the machine is; the search and its first failure do not.
private func unmodifiedConfiguration(seed: UInt64, minimizes: Bool = true) -> Configuration {
  var configuration = Configuration(
    seed: seed,
    shape: .init(threads: 2, operationsPerThread: 2, initialOperations: 1, postOperations: 1),
    scenarios: 20, reproDirectory: FileManagerTemporary.directory)
  configuration.scheduleSettings = ScheduleSettings(schedules: 50)
  configuration.shrinkTimeLimit = .seconds(1)
  configuration.minimizes = minimizes
  return configuration
}

extension RaceCheckTestSuite {
  /// Types written with plain Dispatch and Foundation, as app code is, get schedule mode with no change.
  @Suite struct UnmodifiedCodeScheduleTests {
    @Test func theTestExecutableBindsTheInterposer() {
      #expect(Interposer.isLinked)
    }

    @Test func correctTypesPass() {
      for spec in [
        ThumbnailNames.spec(writesAreBarriers: true) as any Checkable,
        SemaphoreCounter.spec, GroupedAppender.spec, HandedOffCounter.spec,
      ] {
        let report = spec.check(unmodifiedConfiguration(seed: 3))
        #expect(report.verdict == .pass, "\(report)")
      }
    }

    @Test func aWriteWithoutABarrierIsNamedWithItsQueueAndProperty() throws {
      let report = ThumbnailNames.spec(writesAreBarriers: false).check(
        unmodifiedConfiguration(seed: 3))
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.diagnosis.pattern == .concurrentQueueWithoutBarrier, "\(report)")
      #expect(failure.diagnosis.evidence.contains("'thumbnails'"), "\(failure.diagnosis.evidence)")
      #expect(
        failure.diagnosis.evidence.contains("ThumbnailNames.names"), "\(failure.diagnosis.evidence)"
      )
    }

    @Test func aGetThenSetUnderOneLockEachLosesAnUpdate() throws {
      let report = LockedViewCounter.spec.check(
        unmodifiedConfiguration(seed: 3, minimizes: false))
      #expect(report.failure?.diagnosis.pattern == .nonAtomicCompoundUpdate, "\(report)")
    }

    @Test func twoSchedulesInOneProcessAtOnceEachSeeOnlyTheirOwnThreads() throws {
      let spec = ThumbnailNames.spec(writesAreBarriers: false)
      let alone = try #require(
        spec.check(unmodifiedConfiguration(seed: 9, minimizes: false)).failure)
      final class Traces: @unchecked Sendable {
        let lock = NSLock()
        var traces: [InterleavingTrace?] = []
      }
      let together = Traces()
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        let trace = spec.check(unmodifiedConfiguration(seed: 9, minimizes: false)).failure?.trace
        together.lock.withLock { together.traces.append(trace) }
      }
      #expect(together.traces == [alone.trace, alone.trace])
    }

    @Test func theSameSeedGivesTheSameTraceAndTheReproReplaysIt() throws {
      let spec = ThumbnailNames.spec(writesAreBarriers: false)
      let first = try #require(
        spec.check(unmodifiedConfiguration(seed: 9, minimizes: false)).failure)
      for _ in 1...2 {
        let again = try #require(
          spec.check(unmodifiedConfiguration(seed: 9, minimizes: false)).failure)
        #expect(again.trace == first.trace)
        #expect(again.scenario == first.scenario)
      }
      let repro = try Repro.read(from: try #require(first.reproPath))
      for _ in 1...3 {
        let replay = try spec.replay(repro)
        #expect(replay.divergence == nil)
        #expect(replay.failures == 1)
        #expect(replay.trace == first.trace)
      }
    }
  }
}
