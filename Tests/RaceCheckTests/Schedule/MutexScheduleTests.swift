import Fixtures
import Foundation
import RaceCheck
import Synchronization
import Testing

/// A box whose `n` is read and written under a `Mutex`, each separately: `n += 1` loses updates.
final class MutexBox: Sendable {
  private let state = Mutex(0)
  /// Whether `increment()` holds the Mutex once for the whole update (the fix).
  private let incrementsInOneHold: Bool

  init(incrementsInOneHold: Bool) {
    self.incrementsInOneHold = incrementsInOneHold
  }

  var n: Int {
    get { state.withLock { $0 } }
    set { state.withLock { $0 = newValue } }
  }

  func increment() {
    if incrementsInOneHold {
      state.withLock { $0 += 1 }
    } else {
      n += 1
    }
  }

  static func spec(incrementsInOneHold: Bool) -> Spec<MutexBox, Int> {
    let make: @Sendable () -> MutexBox = { MutexBox(incrementsInOneHold: incrementsInOneHold) }
    return Spec(incrementsInOneHold ? "MutexBoxFixed" : "MutexBox", make: make, model: 0) {
      Operation("increment", perform: { (box: MutexBox) in box.increment() }) {
        (state: inout Int) in state += 1
      }
      Operation("get", perform: { (box: MutexBox) in box.n }) { (state: inout Int) in state }
    }
  }
}

/// A generic superclass holding the Mutex, as a base class shared by several stores would.
class MutexBase<Value: Sendable>: @unchecked Sendable {
  let state: Mutex<Value>

  init(_ value: Value) {
    state = Mutex(value)
  }
}

/// A counter on `MutexBase<Int>` whose increment reads, then writes, each under the inherited Mutex.
final class InheritedMutexCounter: MutexBase<Int>, @unchecked Sendable {
  init() { super.init(0) }

  func increment() {
    let read = state.withLock { $0 }
    state.withLock { $0 = read + 1 }
  }

  var value: Int { state.withLock { $0 } }

  static let spec = Spec("InheritedMutexCounter", make: InheritedMutexCounter.init, model: 0) {
    Operation("increment", perform: { (counter: InheritedMutexCounter) in counter.increment() }) {
      (state: inout Int) in state += 1
    }
    Operation("value", perform: { (counter: InheritedMutexCounter) in counter.value }) {
      (state: inout Int) in state
    }
  }
}

/// Stored properties guarded by a `Mutex<Void>`, the way a class moved from `NSLock` keeps them: correct.
final class VoidMutexCounter: @unchecked Sendable {
  private let lock = Mutex(())
  private var count = 0
  private var increments = 0

  func increment() {
    lock.withLock { _ in
      self.count += 1
      self.increments += 1
    }
  }

  var value: Int { lock.withLock { _ in count } }

  static let spec = Spec("VoidMutexCounter", make: VoidMutexCounter.init, model: 0) {
    Operation("increment", perform: { (counter: VoidMutexCounter) in counter.increment() }) {
      (state: inout Int) in state += 1
    }
    Operation("value", perform: { (counter: VoidMutexCounter) in counter.value }) {
      (state: inout Int) in state
    }
  }
}

/// A hit counter on an `Atomic<Int>`: correct, through synchronization the scheduler cannot see.
final class AtomicHits: Sendable {
  private let hits = Atomic<Int>(0)

  func hit() { hits.add(1, ordering: .relaxed) }

  var count: Int { hits.load(ordering: .relaxed) }

  static let spec = Spec("AtomicHits", make: AtomicHits.init, model: 0) {
    Operation("hit", perform: { (counter: AtomicHits) in counter.hit() }) {
      (state: inout Int) in state += 1
    }
    Operation("count", perform: { (counter: AtomicHits) in counter.count }) {
      (state: inout Int) in state
    }
  }
}

/// Schedule mode's configuration for the Mutex tests: small scenarios, a fixed seed, no shrinking to compare.
private func mutexConfiguration(seed: UInt64) -> Configuration {
  var configuration = Configuration(
    seed: seed,
    shape: .init(threads: 2, operationsPerThread: 2, initialOperations: 1, postOperations: 1),
    scenarios: 10, reproDirectory: FileManagerTemporary.directory)
  configuration.scheduleSettings = ScheduleSettings(schedules: 40)
  configuration.minimizes = false
  return configuration
}

extension RaceCheckTestSuite {
  /// `Synchronization.Mutex` under the scheduler: modelled as a lock when it lives in an object the schedule made, and never a plain pass where it is not seen.
  @Suite struct MutexScheduleTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aGetThenASetEachUnderTheMutexLosesAnUpdate(seed: UInt64) throws {
      let report = MutexBox.spec(incrementsInOneHold: false).check(mutexConfiguration(seed: seed))
      let failure = try #require(report.failure, "seed \(seed):\n\(report)")
      #expect(failure.diagnosis.pattern == .nonAtomicCompoundUpdate, "seed \(seed):\n\(report)")
      // The scheduler switched at the Mutex, which it names by its property.
      let steps = try #require(failure.trace).steps.map(\.text)
      #expect(steps.contains("mutex 'MutexBox.state' acquire"), "\(steps)")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theUpdateInOneWithLockPasses(seed: UInt64) {
      let report = MutexBox.spec(incrementsInOneHold: true).check(mutexConfiguration(seed: seed))
      #expect(report.verdict == .pass, "seed \(seed):\n\(report)")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theMutexDictionaryFixturesReachTheirVerdicts(seed: UInt64) throws {
      for name in ["MutexCountStore", "MutexCountStoreFixed"] {
        let target = try #require(scheduleTargets.first { $0.name == name })
        let expectation = try #require(target.scheduleExpectation)
        // The demo's budget, which `racecheck demo --mode schedule` gives them.
        let report = target.checkable.check(scheduleConfiguration(seed: seed, minimizes: false))
        #expect(expectation.isMet(by: report), "\(name), seed \(seed):\n\(report)")
      }
    }

    @Test func aMutexInAGenericSuperclassIsModelledToo() throws {
      let report = InheritedMutexCounter.spec.check(mutexConfiguration(seed: 1))
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.diagnosis.pattern == .nonAtomicCompoundUpdate, "\(report)")
      let steps = try #require(failure.trace).steps.map(\.text)
      // Named by the class that declares it.
      #expect(steps.contains("mutex 'MutexBase<Int>.state' acquire"), "\(steps)")
    }

    @Test func storedPropertiesGuardedByAMutexOfVoidShowNoRace() {
      let report = VoidMutexCounter.spec.check(mutexConfiguration(seed: 4))
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func anAtomicFieldMakesTheVerdictInconclusiveNamingIt() throws {
      let report = AtomicHits.spec.check(mutexConfiguration(seed: 5))
      let reason = try #require(report.inconclusiveReason, "\(report)")
      guard case .unseenSynchronization(let names) = reason else {
        Issue.record("expected unseen synchronization, got \(reason)")
        return
      }
      #expect(names == ["AtomicHits.hits (an Atomic)"])
      #expect(reason.description.contains("AtomicHits.hits"))
    }

    /// Outside a schedule the slow paths forward: a Mutex works as it does without racecheck.
    @Test func outsideAScheduleAContendedMutexStillExcludes() {
      let counter = VoidMutexCounter()
      DispatchQueue.concurrentPerform(iterations: 4) { _ in
        for _ in 0..<10_000 { counter.increment() }
      }
      #expect(counter.value == 40_000)
    }
  }
}

extension RaceCheckTestSuite.MutexScheduleTests {
  /// Row 36 traps inside a global Mutex while the other thread may wait for it: a crash, reported at once, and never a hang.
  @Test func aTrapInsideAGlobalMutexIsReportedAsACrash() throws {
    let target = try RaceCheckTestSuite.IsolatedScheduleCatalogueTests.target(row: 36)
    let report = try RaceCheckTestSuite.IsolatedScheduleCatalogueTests.check(
      target, seed: 1, minimizes: false)
    let crash = try #require(report.failure?.crash, "\(report)")
    #expect(crash.kind == .crash, "\(report)")
    #expect(crash.signal == "SIGILL", "\(report)")
    let steps = try #require(report.failure?.trace).steps.map(\.text)
    #expect(steps.contains { $0.contains("global Mutex 'Fixtures.accountsLock'") }, "\(steps)")
  }
}
