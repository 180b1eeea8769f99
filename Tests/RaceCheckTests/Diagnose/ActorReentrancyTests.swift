import Fixtures
import Foundation
import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// `actor-reentrancy` is named from the hops of the calls' tasks and an experiment, never from results alone.
  @Suite struct ActorReentrancyTests {
    /// Continuations by offset: 1 the helper the method awaits, 2 the actor's method, 3 the spec's closure, 4 racecheck's.
    static func frame(_ address: CodeAddress) -> SymbolizedFrame? {
      let named: [UInt: (String, FrameKind)] = [
        1: ("Audit.record(withdrawal:)", .user), 2: ("Account.withdraw(_:)", .user),
        3: ("closure #1 in spec", .user), 4: ("closure in Operation.waiting", .raceCheck),
        5: ("Task.yield()", .runtime),
      ]
      guard let (function, kind) = named[address.offset] else { return nil }
      return SymbolizedFrame(
        pc: address.offset, module: "Fixtures", function: function, file: "/src/Account.swift",
        line: Int(address.offset) * 10, kind: kind)
    }

    static func hop(_ call: Int, _ sequence: Int, on actor: UInt?, _ chain: [UInt])
      -> ExecutorHop
    {
      ExecutorHop(
        call: call, sequence: sequence, leftExecutor: actor,
        continuations: chain.map { CodeAddress(module: "Fixtures", offset: $0) })
    }

    @Test func aCallThatLeftTheActorDuringAnothersAwaitIsAReentry() throws {
      let hops = [
        Self.hop(0, 0, on: nil, []),  // call 0 starts
        Self.hop(1, 1, on: nil, []),  // call 1 starts
        Self.hop(0, 2, on: 7, [5, 1, 2, 3, 4]),  // call 0 suspends inside withdraw
        Self.hop(1, 3, on: 7, [3, 4]),  // call 1 ran on the actor and returns to its closure
        Self.hop(0, 4, on: 7, [3, 4]),  // call 0 resumed and returns
      ]
      let reentry = try #require(ActorReentrancy.reentry(in: hops, continuation: Self.frame))
      #expect(reentry.suspended == 0)
      #expect(reentry.entered == 1)
      #expect(reentry.suspensionPoint.function == "Account.withdraw(_:)")
      #expect(reentry.innermostAwait?.function == "Audit.record(withdrawal:)")
    }

    @Test func aCallThatEnteredWhileTheOtherAwaitedOffTheActorIsAReentry() throws {
      // Call 0 suspends, yields again off the actor (no actor left), and only then call 1
      // leaves the actor: call 0 was still away.
      let hops = [
        Self.hop(0, 0, on: 7, [5, 1, 2, 3, 4]),
        Self.hop(0, 1, on: nil, [5, 1, 2, 3, 4]),
        Self.hop(1, 2, on: 7, [5, 1, 2, 3, 4]),
        Self.hop(0, 3, on: 7, [3, 4]),
      ]
      let reentry = try #require(ActorReentrancy.reentry(in: hops, continuation: Self.frame))
      #expect(reentry.suspended == 0)
      #expect(reentry.entered == 1)
    }

    @Test func theMethodIsNamedThroughTheSpecsOwnClosuresAndTheirGlue() throws {
      // 6 is a closure of the test the spec's closure calls, 7 the glue around the spec's closure.
      func frame(_ address: CodeAddress) -> SymbolizedFrame? {
        let names: [UInt: String] = [
          6: "closure #2 in walletTest()", 7: "partial apply for closure",
        ]
        guard let name = names[address.offset] else { return Self.frame(address) }
        return SymbolizedFrame(pc: address.offset, module: "Tests", function: name, kind: .user)
      }
      let hops = [
        Self.hop(0, 0, on: 7, [5, 1, 2, 6, 3, 7, 4]),
        Self.hop(1, 1, on: 7, [3, 7, 4]),  // a return, glue and all: no suspension
        Self.hop(0, 2, on: 7, [3, 7, 4]),
      ]
      let reentry = try #require(ActorReentrancy.reentry(in: hops, continuation: frame))
      #expect(reentry.suspensionPoint.function == "Account.withdraw(_:)")
      #expect(reentry.innermostAwait?.function == "Audit.record(withdrawal:)")
      #expect(reentry.entered == 1)
      let returnsOnly = [Self.hop(0, 0, on: 7, [3, 7, 4]), Self.hop(1, 1, on: 7, [3, 7, 4])]
      #expect(ActorReentrancy.reentry(in: returnsOnly, continuation: frame) == nil)
    }

    @Test func callsThatLeftTheActorOneAfterAnotherAreNoReentry() {
      let hops = [
        Self.hop(0, 0, on: nil, []),
        Self.hop(0, 1, on: 7, [1, 2, 3, 4]),
        Self.hop(0, 2, on: 7, [3, 4]),
        Self.hop(1, 3, on: nil, []),
        Self.hop(1, 4, on: 7, [1, 2, 3, 4]),
        Self.hop(1, 5, on: 7, [3, 4]),
      ]
      #expect(ActorReentrancy.reentry(in: hops, continuation: Self.frame) == nil)
    }

    @Test func aCallOnAnotherActorDuringTheAwaitIsNoReentry() {
      let hops = [
        Self.hop(0, 0, on: 7, [1, 2, 3, 4]),
        Self.hop(1, 1, on: 8, [3, 4]),
        Self.hop(0, 2, on: 7, [3, 4]),
      ]
      #expect(ActorReentrancy.reentry(in: hops, continuation: Self.frame) == nil)
    }

    @Test func aReturnToTheOperationIsNoSuspension() {
      // Call 0 leaves the actor only to return to its closure; call 1 comes after.
      let hops = [
        Self.hop(0, 0, on: 7, [3, 4]),
        Self.hop(1, 1, on: 7, [3, 4]),
      ]
      #expect(ActorReentrancy.reentry(in: hops, continuation: Self.frame) == nil)
    }

    @Test func anExclusiveCallWaitsForTheOthersAndTheyForIt() async {
      let gate = ExclusiveGate()
      let log = Log()
      await gate.enter(exclusive: false)
      async let exclusive: Void = {
        await gate.enter(exclusive: true)
        log.append("exclusive in")
        gate.leave(exclusive: true)
      }()
      // Let the exclusive call queue up behind the shared one.
      for _ in 0..<10 { await Task.yield() }
      log.append("shared out")
      gate.leave(exclusive: false)
      await exclusive
      await gate.enter(exclusive: false)
      log.append("shared in")
      gate.leave(exclusive: false)
      #expect(log.entries == ["shared out", "exclusive in", "shared in"])
    }

    final class Log: @unchecked Sendable {
      private let lock = NSLock()
      private var kept: [String] = []
      func append(_ entry: String) { lock.withLock { kept.append(entry) } }
      var entries: [String] { lock.withLock { kept } }
    }

    /// The report names the actor's method and the line of its await, in both modes.
    @Test(arguments: [false, true])
    func theBankAccountActorsOverdraftIsNamedWithItsSuspensionPoint(underTheScheduler: Bool)
      throws
    {
      var configuration = Configuration.demo(seed: 1)
      if underTheScheduler { configuration.scheduleSettings = ScheduleSettings() }
      configuration.reproDirectory = FileManagerTemporary.directory
      let target = try #require(Catalogue.targets.first { $0.name == "BankAccountActor" })
      let report = target.checkable.check(configuration)
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.diagnosis.pattern == .actorReentrancy, "\(report)")
      #expect(
        failure.diagnosis.evidence.contains(
          "at the await in BankAccountActor.withdraw(_:) at Fixtures/BankAccountActor.swift:29"),
        "\(failure.diagnosis.evidence)")
      #expect(failure.diagnosis.evidence.contains("ran on the actor before it resumed"))
    }

    /// Two overlapping `add`s and a `count` that saw one: a lost update by the results alone.
    static let lostAdd = History(operations: [
      .made(0, "add", [], 1, 4),
      .made(1, "add", [], 2, 3),
      .made(0, "count", [], 5, 6, result: .int(1)),
    ])
    static let lostAddScenario = Scenario(
      parallel: [[Scenario.Call("add", [])], [Scenario.Call("add", [])]],
      post: [Scenario.Call("count", [])])

    /// The diagnosis a stress session gives ``lostAdd`` as a failure of `spec`, with experiments of `budget` invocations.
    static func diagnosis<Subject, Model>(of spec: Spec<Subject, Model>, budget: Int) -> Diagnosis {
      let session = CheckSession(
        spec: spec, configuration: Configuration.demo(seed: 1),
        runner: StressScenarioRunner(spec: spec))
      defer { session.runner.shutDown() }
      let failure = ObservedFailure(
        evidence: .nonLinearizable(
          lostAdd, Explanation(longestPrefix: [], state: "0", candidates: [])))
      return session.diagnose(
        failure, of: lostAddScenario, index: 0, experimentBudget: budget
      ).diagnosis
    }

    /// A spec of an `async` tally: `add` counts one, `count` reads the count.
    static func tallySpec<Tally: AsyncTally>(_ name: String, make: @escaping @Sendable () -> Tally)
      -> Spec<Tally, Int>
    {
      Spec(name, make: make, model: 0) {
        Operation("add") { (tally: Tally) in
          await tally.add()
        } model: {
          (count: inout Int) in
          count += 1
        }
        Operation("count") { (tally: Tally) in
          await tally.count
        } model: {
          (count: inout Int) in
          count
        }
      }
    }

    /// Results that fit a compound update are not named one when the calls are `async` and no run ruled out reentrancy.
    ///
    /// The actor here is correct, so the probe never sees the failure: an actor's reentrancy
    /// is neither proven nor ruled out, and the same results of synchronous calls are named.
    @Test func aLostUpdateOfAsyncCallsThatNoProbedRunShowsIsUnclassified() {
      let asynchronous = Self.tallySpec("SafeTally", make: SafeTally.init)
      let unseen = Self.diagnosis(of: asynchronous, budget: 20)
      #expect(unseen.pattern == .unclassified, "\(unseen.evidence)")
      #expect(
        unseen.evidence.contains("did not see the failure in 40 invocations"), "\(unseen.evidence)")
      let synchronous = Spec("LockedTally", make: LockedTally.init, model: 0) {
        Operation("add") { (tally: LockedTally) in
          tally.add()
        } model: {
          (count: inout Int) in
          count += 1
        }
        Operation("count") { (tally: LockedTally) in
          tally.count
        } model: {
          (count: inout Int) in
          count
        }
      }
      let named = Self.diagnosis(of: synchronous, budget: 20)
      #expect(named.pattern == .nonAtomicCompoundUpdate, "\(named.evidence)")
    }

    /// A probed run that fails with no call entering an actor rules reentrancy out, and the results name the bug.
    ///
    /// `CappedTally` has no actor and counts at most one `add`, so every probed run fails.
    @Test func aLostUpdateOfAsyncCallsOnNoActorIsNamedFromTheResults() {
      let spec = Self.tallySpec("CappedTally", make: CappedTally.init)
      let diagnosis = Self.diagnosis(of: spec, budget: 20)
      #expect(diagnosis.pattern == .nonAtomicCompoundUpdate, "\(diagnosis.evidence)")
    }

    /// A lost update of a class with no actor, across an await, is not reentrancy: its await leaves no actor.
    @Test func aClassWithoutAnActorIsNotNamedReentrant() throws {
      var configuration = Configuration.demo(seed: 1)
      configuration.reproDirectory = FileManagerTemporary.directory
      let spec = Spec("UnisolatedTally", make: UnisolatedTally.init, model: 0) {
        Operation("add") { (tally: UnisolatedTally) in
          await tally.add()
        } model: {
          (count: inout Int) in
          count += 1
        }
        Operation("count") { (tally: UnisolatedTally) async in
          tally.count
        } model: {
          (count: inout Int) in
          count
        }
      }
      let report = spec.check(configuration)
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.diagnosis.pattern != .actorReentrancy, "\(report)")
    }
  }
}

/// A count behind a lock, updated by reading, awaiting and writing: no actor is involved.
final class UnisolatedTally: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  var count: Int { lock.withLock { value } }

  func add() async {
    let read = count
    await Task.yield()
    lock.withLock { value = read + 1 }
  }
}

/// A count that an `async` method adds one to.
protocol AsyncTally: Sendable {
  var count: Int { get async }
  func add() async
}

/// A correct actor whose `add` suspends: no call can lose another's update.
actor SafeTally: AsyncTally {
  private(set) var count = 0

  func add() async {
    await Task.yield()
    count += 1
  }
}

/// A correct count behind a lock.
final class LockedTally: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  var count: Int { lock.withLock { value } }

  func add() { lock.withLock { value += 1 } }
}

/// A count with no actor that keeps at most one `add`: every run of two adds loses one.
final class CappedTally: AsyncTally, @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  var count: Int { get async { lock.withLock { value } } }

  func add() async {
    await Task.yield()
    lock.withLock { value = 1 }
  }
}
