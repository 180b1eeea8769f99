import Foundation
import Synchronization
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// Operations whose calls are `async` run in tasks of their own, and actors are subjects like any type.
  @Suite struct AsyncOperationTests {
    @Test func aCallReturnsWhatItsTaskReturned() throws {
      let value = try CompletionWait().value(of: Scenario.Call("count"), timeout: .seconds(10)) {
        await Task.yield()
        return .int(3)
      }
      #expect(value == .int(3))
    }

    /// Outside the scheduler and a probe, a call's task starts at once on the scenario thread that made it, not after a hop to another thread.
    @Test func aCallsTaskStartsOnTheThreadThatMadeIt() {
      let result = Mutex<Value?>(nil)
      let finished = DispatchSemaphore(value: 0)
      // A thread of its own, as a runner's are: not one of the concurrency runtime's.
      let thread = Thread {
        let caller = pthread_self()
        let value = try? CompletionWait().value(
          of: Scenario.Call("count"), timeout: .seconds(10)
        ) { .bool(pthread_equal(pthread_self(), caller) != 0) }
        result.withLock { $0 = value }
        finished.signal()
      }
      thread.start()
      finished.wait()
      #expect(result.withLock { $0 } == .bool(true))
    }

    @Test func aCallRethrowsWhatItsTaskThrew() {
      struct Refused: Error {}
      #expect(throws: Refused.self) {
        _ = try CompletionWait().value(of: Scenario.Call("count"), timeout: .seconds(10)) {
          () async throws -> Value in throw Refused()
        }
      }
    }

    static func accountSpec(_ name: String, make: @escaping @Sendable () -> Account) -> Spec<
      Account, Int
    > {
      Spec(name, make: make, model: 0) {
        Operation("balance") { (account: Account) in
          await account.balance
        } model: {
          (balance: inout Int) in
          balance
        }
        Operation("deposit", .int(in: 1...2)) { (account: Account, amount: Int) in
          await account.deposit(amount)
        } model: { (balance: inout Int, amount: Int) in
          balance += amount
        }
        Operation("withdraw", .int(in: 1...2)) { (account: Account, amount: Int) in
          await account.withdraw(amount)
        } model: { (balance: inout Int, amount: Int) -> Bool in
          guard balance >= amount else { return false }
          balance -= amount
          return true
        }
      }
    }

    /// Passing checks here run ten scenarios: rows 31 and 33 of the catalogue run the full budget.
    static func passing(seed: UInt64, underTheScheduler: Bool = false) -> Configuration {
      var configuration = underTheScheduler ? scheduled(seed: seed) : Configuration.demo(seed: seed)
      configuration.scenarios = 10
      configuration.reproDirectory = FileManagerTemporary.directory
      return configuration
    }

    @Test func anActorWhoseMethodsDoNotSuspendPasses() {
      let configuration = Self.passing(seed: 1)
      let spec = Self.accountSpec("AtomicAccount") { Account(auditsBeforeWithdrawing: false) }
      let report = check(spec, configuration: configuration)
      #expect(report.verdict == .pass, "\(report)")
    }

    /// Schedule mode: each job of Swift's concurrency runtime is a block the scheduler runs.
    static func scheduled(seed: UInt64) -> Configuration {
      var configuration = Configuration.demo(seed: seed)
      configuration.scheduleSettings = ScheduleSettings()
      configuration.reproDirectory = FileManagerTemporary.directory
      return configuration
    }

    @Test func anActorMethodThatAwaitsBetweenCheckingAndWithdrawingOverdraws() async {
      let spec = Self.accountSpec("ReentrantAccount") { Account(auditsBeforeWithdrawing: true) }
      var report: CheckReport?
      // From an async test, as a failure is recorded on the test's own task.
      await withKnownIssue { report = await check(spec, configuration: Self.scheduled(seed: 1)) }
      // Two withdrawals passed one check of the balance: results no order explains.
      #expect(report?.failure?.kind == .nonLinearizable, "\(String(describing: report))")
    }

    @Test func theSameSeedGivesTheSameActorInterleavingAndTheReproReplaysIt() throws {
      let spec = Self.accountSpec("ReentrantAccount") { Account(auditsBeforeWithdrawing: true) }
      var configuration = Self.scheduled(seed: 1)
      configuration.minimizes = false
      let first = try #require(spec.check(configuration).failure)
      for _ in 1...2 {
        let again = try #require(spec.check(configuration).failure)
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

    static func feedSpec(_ name: String, awaitsFetch: Bool) -> Spec<FeedModel, Int> {
      let make: @Sendable () -> FeedModel = { FeedModel(awaitsFetch: awaitsFetch) }
      return Spec(name, make: make, model: 0) {
        Operation("count") { (feed: FeedModel) in
          await feed.items.count
        } model: {
          (count: inout Int) in
          count
        }
        Operation("refresh") { (feed: FeedModel) in
          await feed.refresh()
        } model: {
          (count: inout Int) -> Int in
          count += 1
          return count - 1
        }
      }
    }

    @Test(arguments: [false, true])
    func aMainActorClassIsASubject(underTheScheduler: Bool) async {
      let configuration = Self.passing(seed: 2, underTheScheduler: underTheScheduler)
      let report = await check(
        Self.feedSpec("Feed", awaitsFetch: false), configuration: configuration)
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test(arguments: [false, true])
    func aMainActorInitializerMakesTheSubjectOnTheMainActor(underTheScheduler: Bool) async {
      let make: @MainActor @Sendable () -> MainActorTally = { MainActorTally() }
      let spec = Spec("Tally", makeOnMainActor: make, model: 0) {
        Operation("increment") { (tally: MainActorTally) in
          await tally.increment()
        } model: {
          (count: inout Int) -> Int in
          count += 1
          return count
        }
      }
      let configuration = Self.passing(seed: 3, underTheScheduler: underTheScheduler)
      let report = await check(spec, configuration: configuration)
      #expect(report.verdict == .pass, "\(report)")
    }

    @Test func aMainActorMethodThatAwaitsBetweenReadingAndWritingNumbersTwice() async {
      var report: CheckReport?
      await withKnownIssue {
        report = await check(
          Self.feedSpec("ReentrantFeed", awaitsFetch: true), configuration: Self.scheduled(seed: 2))
      }
      #expect(report?.failure?.kind == .nonLinearizable, "\(String(describing: report))")
    }

    @Test func anActorsStateIsOrderedByTheActorUnderTheScheduler() {
      // The actor's jobs run one at a time by the runtime's atomics, not by a primitive the
      // scheduler models: its accesses are no data race.
      let spec = Self.accountSpec("AtomicAccount") { Account(auditsBeforeWithdrawing: false) }
      let report = check(spec, configuration: Self.passing(seed: 1, underTheScheduler: true))
      #expect(report.verdict == .pass, "\(report)")
    }

    /// An actor that keeps its count in a `DispatchQueue`-based store: one program for the scheduler.
    static let tallySpec = Spec("QueueBackedTally", make: QueueBackedTally.init, model: 0) {
      Operation("add") { (tally: QueueBackedTally) in
        await tally.add()
      } model: {
        (count: inout Int) in
        count += 1
      }
      Operation("count") { (tally: QueueBackedTally) in
        await tally.count()
      } model: {
        (count: inout Int) in
        count
      }
    }

    @Test func anActorOverADispatchQueueIsScheduledAsOneProgram() throws {
      var configuration = Self.scheduled(seed: 1)
      configuration.minimizes = false
      let first = try #require(Self.tallySpec.check(configuration).failure)
      let trace = try #require(first.trace)
      // The store's queue and the calls' tasks take steps in the same interleaving.
      #expect(trace.steps.contains { $0.text.contains("'tally-store'") }, "\(trace.render())")
      #expect(trace.threadNames.contains { $0.hasPrefix("Task ") && $0.hasSuffix(": add") })
      for _ in 1...2 {
        #expect(Self.tallySpec.check(configuration).failure?.trace == trace)
      }
      let repro = try Repro.read(from: try #require(first.reproPath))
      let replay = try Self.tallySpec.replay(repro)
      #expect(replay.divergence == nil)
      #expect(replay.trace == trace)
    }

    @Test func aBuiltInModelTakesAsyncOperationsCheckedFromAnAsyncTest() async {
      let configuration = Self.passing(seed: 1)
      let spec = Spec("ActorCounter", make: ActorCounter.init, model: CounterModel()) {
        Operation("get") { (counter: ActorCounter) in await counter.value }
        Operation("increment") { (counter: ActorCounter) in await counter.increment() }
      }
      let report = await check(spec, configuration: configuration)
      #expect(report.verdict == .pass, "\(report)")
    }
  }
}

/// An account whose withdrawal may await an audit log between checking the balance and subtracting.
actor Account {
  private(set) var balance = 0
  private let auditsBeforeWithdrawing: Bool
  private let log = AuditLog()

  init(auditsBeforeWithdrawing: Bool) {
    self.auditsBeforeWithdrawing = auditsBeforeWithdrawing
  }

  func deposit(_ amount: Int) { balance += amount }

  func withdraw(_ amount: Int) async -> Bool {
    guard balance >= amount else { return false }
    // The actor is free while this awaits: another withdrawal can pass the same check.
    if auditsBeforeWithdrawing { await log.record(amount) }
    balance -= amount
    return true
  }
}

/// A count kept behind a serial queue, read through a completion handler.
final class QueueStore: @unchecked Sendable {
  private let queue = DispatchQueue(label: "tally-store")
  private var value = 0

  func read(_ done: @escaping @Sendable (Int) -> Void) { queue.async { done(self.value) } }

  func write(_ newValue: Int) { queue.sync { value = newValue } }
}

/// An actor whose `add` awaits the store's read and then writes: the actor is free at the await.
actor QueueBackedTally {
  private let store = QueueStore()

  func add() async {
    let read = await count()
    store.write(read + 1)
  }

  func count() async -> Int {
    await withCheckedContinuation { continuation in
      store.read { continuation.resume(returning: $0) }
    }
  }
}

/// Another actor, so that awaiting it suspends the caller.
actor AuditLog {
  private var amounts: [Int] = []

  func record(_ amount: Int) { amounts.append(amount) }
}

/// A counter actor that never suspends inside its methods.
actor ActorCounter {
  private(set) var value = 0

  func increment() { value += 1 }
}

/// A counter on the main actor whose initializer is isolated to it, as an app's view model's is.
@MainActor final class MainActorTally {
  private(set) var count: Int

  init() { count = 0 }

  func increment() -> Int {
    count += 1
    return count
  }
}

/// A view model on the main actor whose refresh may await a fetch between reading and writing its items.
@MainActor final class FeedModel {
  private(set) var items: [Int] = []
  private let awaitsFetch: Bool

  nonisolated init(awaitsFetch: Bool) { self.awaitsFetch = awaitsFetch }

  /// Appends the next item, numbered from the items it read.
  func refresh() async -> Int {
    let next = items.count
    if awaitsFetch { await Fetcher.shared.fetch() }
    items.append(next)
    return next
  }
}

/// A fetch off the main actor.
actor Fetcher {
  static let shared = Fetcher()

  func fetch() {}
}
