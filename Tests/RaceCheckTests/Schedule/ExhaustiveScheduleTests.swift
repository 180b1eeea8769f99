import Foundation
import RaceCheck
import RaceCheckCommandLine
import RaceCheckSync
import Testing

/// A bug-free user type over the primitives: sync reads and barrier writes on a concurrent queue.
final class BarrierRegister: @unchecked Sendable {
  private let queue = SyncQueue(label: "register", attributes: .concurrent)
  private let value = SyncCell<Int>(0, name: "value")
  private let writes = SyncMutex<Int>(0)

  var current: Int { queue.sync { value.value } }

  func set(_ newValue: Int) {
    queue.async(flags: .barrier) { self.value.value = newValue }
  }

  func increment() {
    queue.sync(flags: .barrier) { value.value += 1 }
    writes.withLock { $0 += 1 }
  }

  static let spec = Spec("BarrierRegister", make: BarrierRegister.init, model: 0) {
    Operation("get", perform: { (register: BarrierRegister) in register.current }) {
      (state: inout Int) in state
    }
    Operation(
      "set", .int(in: 0...2),
      perform: { (register: BarrierRegister, value: Int) in register.set(value) }
    ) { (state: inout Int, value: Int) in state = value }
    Operation("increment", perform: { (register: BarrierRegister) in register.increment() }) {
      (state: inout Int) in state += 1
    }
  }
}

/// An actor that logs who called it, in the order the calls ran.
actor CallerLog {
  private(set) var callers: [Int] = []

  func append(_ caller: Int) { callers.append(caller) }
}

/// The orders a search's schedules left in a ``CallerLog``, gathered across schedules under a lock.
final class OrdersSeen: @unchecked Sendable {
  private let lock = NSLock()
  private var seen: Set<[Int]> = []

  var orders: Set<[Int]> { lock.withLock { seen } }

  func insert(_ order: [Int]) { lock.withLock { _ = seen.insert(order) } }
}

/// Two locks taken in opposite orders by two operations: a lock-order deadlock.
final class CrossedTransfers: @unchecked Sendable {
  private let checking = SyncLock(name: "checking")
  private let savings = SyncLock(name: "savings")
  private let balance = SyncCell<Int>(0, name: "balance")

  func toSavings() {
    checking.withLock { savings.withLock { balance.value += 1 } }
  }

  func toChecking() {
    savings.withLock { checking.withLock { balance.value -= 1 } }
  }

  static let spec = Spec("CrossedTransfers", make: CrossedTransfers.init, model: 0) {
    Operation("toSavings", perform: { (bank: CrossedTransfers) in bank.toSavings() }) {
      (state: inout Int) in state += 1
    }
    Operation("toChecking", perform: { (bank: CrossedTransfers) in bank.toChecking() }) {
      (state: inout Int) in state -= 1
    }
  }
}

extension RaceCheckTestSuite {
  @Suite
  struct ExhaustiveScheduleTests {
    @Test func lockOrderDeadlockIsNamedWithWhatEachThreadHoldsAndWaitsFor() throws {
      var configuration = Configuration(
        seed: 1,
        shape: .init(threads: 2, operationsPerThread: 1, initialOperations: 0, postOperations: 0),
        scenarios: 10, reproDirectory: FileManagerTemporary.directory)
      configuration.scheduleSettings = ScheduleSettings(strategy: .exhaustive, preemptionBound: 2)
      let report = CrossedTransfers.spec.check(configuration)
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.kind == .deadlock)
      #expect(failure.diagnosis.pattern == .lockOrderInversion)
      let evidence = failure.diagnosis.evidence
      #expect(
        evidence.contains("Thread 0 holds lock 'savings' and waits for lock 'checking'"),
        "\(evidence)")
      #expect(
        evidence.contains("Thread 1 holds lock 'checking' and waits for lock 'savings'"),
        "\(evidence)")
    }

    @Test func barrierRegisterPassesAnExhaustiveTwoByThreeSearchWithPreemptionBoundTwo() {
      var configuration = Configuration(
        seed: 5,
        shape: .init(threads: 2, operationsPerThread: 3, initialOperations: 0, postOperations: 0),
        scenarios: 2, reproDirectory: FileManagerTemporary.directory)
      configuration.scheduleSettings = ScheduleSettings(
        strategy: .exhaustive, preemptionBound: 2, schedules: 1_000_000)
      let report = BarrierRegister.spec.check(configuration)
      #expect(report.verdict == .pass, "\(report)")
      #expect(report.specError == nil)
      #expect(report.invocations > 2, "the search explored \(report.invocations) schedules")
    }

    @Test func anExhaustiveSearchFindsTheLostUpdate() throws {
      var configuration = Configuration(
        seed: 5,
        shape: .init(threads: 2, operationsPerThread: 1, initialOperations: 0, postOperations: 1),
        scenarios: 5, reproDirectory: FileManagerTemporary.directory)
      configuration.scheduleSettings = ScheduleSettings(strategy: .exhaustive, preemptionBound: 1)
      let target = try #require(scheduleTargets.first { $0.name == "AtomicCounter" })
      let report = target.checkable.check(configuration)
      #expect(report.failure?.diagnosis.pattern == .nonAtomicCompoundUpdate, "\(report)")
    }

    @Test func pctFindsTheGlobalQueueBarrier() throws {
      var configuration = scheduleConfiguration(seed: 2)
      configuration.scheduleSettings = ScheduleSettings(strategy: .pct, depth: 2)
      let target = try #require(scheduleTargets.first { $0.name == "GlobalQueueBarrierArray" })
      let report = target.checkable.check(configuration)
      #expect(report.failure?.diagnosis.pattern == .barrierOnGlobalQueue, "\(report)")
    }

    @Test func primitivesForwardWithNoScheduler() {
      let queue = SyncQueue(label: "forward", attributes: .concurrent)
      let cell = SyncCell(0)
      let counter = SyncAtomicInt(0)
      let flag = SyncAtomicBool(false)
      let lock = SyncLock()
      for _ in 0..<10 { queue.async(flags: .barrier) { cell.value += 1 } }
      #expect(queue.sync { cell.value } == 10)
      counter.add(2)
      #expect(counter.load() == 2)
      #expect(!flag.exchange(true))
      #expect(lock.withLock { counter.compareExchange(expected: 2, desired: 3).exchanged })
      #expect(SyncQueue.global() === SyncQueue.global())
    }
  }
}

extension RaceCheckTestSuite {
  /// Partial-order reduction on real code under the scheduler: the verdicts of the unbounded depth-first search, every interleaving explored, never more schedules.
  @Suite struct ReducedScheduleTests {
    /// Two threads of one call: small enough for the unbounded depth-first search to end.
    static let twoByOne = Configuration.Shape(
      threads: 2, operationsPerThread: 1, initialOperations: 0, postOperations: 1)

    /// Rows of locks, serial, concurrent and barrier queues, sync and async, properties and a Mutex, failing and passing, some by a data race.
    @Test(arguments: [
      "AtomicCounter", "LockedCounter", "SomeStringLocked", "SomeStringConcurrentNoBarrier",
      "MutexCountStore", "MutexCountStoreFixed", "LockedWriteUnlockedRead",
      "SomeStringSerialAsyncSet", "SomeStringConcurrentBarrier", "NSSafeMutableDictionary",
    ])
    func theReductionReachesTheVerdictsOfTheFullSearch(name: String) throws {
      let target = try #require(scheduleTargets.first { $0.name == name })
      let full = target.checkable.explorations(
        shape: Self.twoByOne, scenarios: 3,
        settings: ScheduleSettings(
          strategy: .exhaustive, preemptionBound: 1_000, schedules: 20_000))
      let reduced = target.checkable.explorations(
        shape: Self.twoByOne, scenarios: 3,
        settings: ScheduleSettings(strategy: .dpor, schedules: 20_000))
      for (index, (all, few)) in zip(full, reduced).enumerated() {
        // A failure found settles a verdict, however much of the search was left.
        #expect(
          (all.complete && few.complete) || (all.failed && few.failed),
          "\(name), scenario \(index): \(all), \(few)")
        #expect(few.schedules <= all.schedules, "\(name), scenario \(index)")
        #expect(few.failed == all.failed, "\(name), scenario \(index): \(all) against \(few)")
      }
    }

    @Test func aPassUnderTheReductionSaysEveryInterleavingWasExplored() throws {
      let target = try #require(scheduleTargets.first { $0.name == "LockedCounter" })
      var configuration = Configuration(
        seed: 1, shape: Self.twoByOne, scenarios: 3,
        reproDirectory: FileManagerTemporary.directory)
      configuration.scheduleSettings = ScheduleSettings(strategy: .dpor, schedules: 20_000)
      let report = target.checkable.check(configuration)
      #expect(report.verdict == .pass, "\(report)")
      #expect("\(report)".contains("every interleaving of each explored"), "\(report)")
    }

    /// Bodies whose outcome the concurrency runtime decides by atomics no scheduling point shows: which task takes an actor first, whether a cancel comes before a check, which child of a group finishes first.
    static let runtimeRaces: [RuntimeRace] = [
      RuntimeRace("two tasks calling an actor twice each") { seen in
        let log = CallerLog()
        let first = Task { for _ in 0..<2 { await log.append(1) } }
        let second = Task { for _ in 0..<2 { await log.append(2) } }
        _ = await (first.value, second.value)
        seen.insert(await log.callers)
      },
      RuntimeRace("two tasks calling two actors in opposite orders") { seen in
        let (one, other) = (CallerLog(), CallerLog())
        let first = Task {
          await one.append(1)
          await other.append(1)
        }
        let second = Task {
          await other.append(2)
          await one.append(2)
        }
        _ = await (first.value, second.value)
        seen.insert(await one.callers + other.callers)
      },
      RuntimeRace("a task cancelled while it checks for cancellation") { seen in
        let checking = Task { Task.isCancelled ? 1 : 0 }
        let cancelling = Task { checking.cancel() }
        await cancelling.value
        seen.insert([await checking.value])
      },
      RuntimeRace("a task group cancelled while its child checks") { seen in
        let sawCancel = await withTaskGroup(of: Int.self) { group in
          group.addTask { Task.isCancelled ? 1 : 0 }
          await Task.yield()
          group.cancelAll()
          return await group.next() ?? -1
        }
        seen.insert([sawCancel])
      },
      RuntimeRace("a task group's children finishing") { seen in
        let order = await withTaskGroup(of: Int.self) { group in
          for child in 1...3 { group.addTask { child } }
          var order: [Int] = []
          for await child in group { order.append(child) }
          return order
        }
        seen.insert(order)
      },
    ]

    @Test func theCancellationEntryPointsTheInterposerNotesBehaveAsTheRuntimesOwn() async throws {
      let cancelled = Task { () -> Bool in
        withUnsafeCurrentTask { $0?.cancel() }
        return withUnsafeCurrentTask { $0?.isCancelled ?? false } && Task.isCancelled
      }
      #expect(await cancelled.value)
      #expect(cancelled.isCancelled)
      let checked = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        try Task.checkCancellation()
      }
      await #expect(throws: CancellationError.self) { try await checked.value }
      let running = Task { 0 }
      #expect(!running.isCancelled)
      await withTaskGroup(of: Void.self) { group in
        #expect(!group.isCancelled)
        group.cancelAll()
        #expect(group.isCancelled)
      }
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.cancelAll()
        #expect(group.isCancelled)
        try await group.waitForAll()
      }
      await withDiscardingTaskGroup { group in
        group.cancelAll()
        #expect(group.isCancelled)
      }
      try await withThrowingDiscardingTaskGroup { group in
        group.cancelAll()
        #expect(group.isCancelled)
      }
    }

    @Test(arguments: runtimeRaces)
    func theReductionReachesEveryOutcomeTheRuntimeMayDecide(_ race: RuntimeRace) async {
      // The runtime decides these by atomics the scheduler cannot see: the reduction must still
      // reach every outcome a random walk reaches, and end.
      let reduced = await race.outcomes(.dpor, schedules: 20_000)
      let random = await race.outcomes(.random, schedules: 1_000)
      #expect(reduced.report.verdict == .pass, "\(reduced.report)")
      #expect(
        "\(reduced.report)".contains("every interleaving of this body explored"),
        "\(reduced.report)")
      #expect(random.outcomes.count > 1, "\(random.outcomes)")
      #expect(
        random.outcomes.isSubset(of: reduced.outcomes), "\(reduced.outcomes), \(random.outcomes)")
    }

    @Test func aBudgetThatEndsBeforeTheInterleavingsIsNoPass() throws {
      let target = try #require(scheduleTargets.first { $0.name == "NSSafeMutableDictionary" })
      var configuration = Configuration(
        seed: 1, shape: Self.twoByOne, scenarios: 2,
        reproDirectory: FileManagerTemporary.directory)
      configuration.scheduleSettings = ScheduleSettings(strategy: .dpor, schedules: 2)
      let report = target.checkable.check(configuration)
      #expect(report.verdict == .inconclusive, "\(report)")
      #expect("\(report)".contains("still had interleavings to explore"), "\(report)")
    }
  }
}

/// A body whose outcome, an array of numbers, the concurrency runtime decides, for ``RaceCheckTestSuite/ReducedScheduleTests``.
struct RuntimeRace: Sendable, CustomTestStringConvertible {
  let name: String
  let body: @Sendable (OrdersSeen) async -> Void

  init(_ name: String, body: @escaping @Sendable (OrdersSeen) async -> Void) {
    self.name = name
    self.body = body
  }

  var testDescription: String { name }

  /// The outcomes the body left over the schedules of a search of `strategy`, in this process, and its report.
  func outcomes(
    _ strategy: ScheduleSettings.Strategy, schedules: Int
  ) async -> (outcomes: Set<[Int]>, report: CheckReport) {
    let seen = OrdersSeen()
    let report = await explore(
      name,
      configuration: Configuration.Exploration(
        strategy: strategy, schedules: schedules, seed: 1, isolated: false)
    ) { await body(seen) }
    return (seen.orders, report)
  }
}
