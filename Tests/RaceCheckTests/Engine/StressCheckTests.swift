import RaceCheck
import RaceCheckTestSupport
import Testing

extension RaceCheckTestSuite {
  struct StressCheckTests {
    @Test func sequentialBugShrinksToTheInsertAndTheReadThatExposesIt() throws {
      let report = GuardedInsertArray.spec.check(smallConfiguration())
      let failure = try #require(report.failure)
      #expect(failure.diagnosis.pattern == .insertAtCountRejected)
      #expect(failure.scenario.size <= 3, "\(report)")
      #expect(failure.scenario.allCallNames.contains("insert"))
      #expect(
        failure.failedInvocations == failure.invocations, "a sequential bug fails every invocation")
    }

    @Test func lostUpdateIsFoundAndNamed() throws {
      let report = SplitLockCounter.spec.check(smallConfiguration(seed: 3))
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.diagnosis.pattern == .nonAtomicCompoundUpdate)
    }

    @Test func correctCounterPassesWithABuiltInAndWithACustomModel() {
      #expect(OneLockCounter.spec.check(smallConfiguration()).verdict == .pass)
      #expect(OneLockCounter.customModelSpec.check(smallConfiguration()).verdict == .pass)
    }

    @Test func lostUpdateOfACustomModelsIncrementIsANonAtomicCompoundUpdate() throws {
      let spec = Spec("SplitLockCounterCustomModel", make: SplitLockCounter.init, model: 0) {
        Operation(
          "get", perform: { (counter: SplitLockCounter) in counter.value },
          model: { (count: inout Int) in count })
        Operation(
          "increment", perform: { (counter: SplitLockCounter) in counter.increment() },
          model: { (count: inout Int) in count += 1 })
      }
      // The custom increment returns nothing and the history is explained by one lost: the
      // read-modify-write of two locked steps that the generic compound-update rule names.
      let failure = try #require(spec.check(smallConfiguration(seed: 3)).failure)
      #expect(failure.diagnosis.pattern == .nonAtomicCompoundUpdate, "\(failure.diagnosis)")
    }

    @Test func replayOfARecordedFailureReproducesItAndMeasuresItsRate() throws {
      let report = GuardedInsertArray.spec.check(smallConfiguration())
      let failure = try #require(report.failure)
      let repro = try Repro.read(from: try #require(failure.reproPath))
      let replay = try GuardedInsertArray.spec.replay(repro)
      guard case .reproduced = replay.outcome else {
        Issue.record("expected the failure to show again, got \(replay.outcome)")
        return
      }
      // The guard drops every insert at count: every invocation of the round fails.
      #expect(replay.failures == replay.invocations)
      #expect(replay.failureRate == 1)
      #expect(replay.diagnosis?.pattern == .insertAtCountRejected)
    }

    @Test func replayThatDoesNotReproduceIsInconclusiveNotAPass() throws {
      let report = GuardedInsertArray.spec.check(smallConfiguration())
      var repro = try Repro.read(from: try #require(report.failure?.reproPath))
      // The same target, a scenario that never fails: one append, then a count.
      repro.scenario = Scenario(
        initial: [Scenario.Call("append", [.int(1)])], post: [Scenario.Call("count", [])])
      let replay = try GuardedInsertArray.spec.replay(repro, timeLimit: .milliseconds(200))
      guard case .notReproduced = replay.outcome else {
        Issue.record("expected no reproduction, got \(replay.outcome)")
        return
      }
      #expect(replay.failures == 0)
      #expect(replay.invocations > 0)
    }

    @Test func replayRejectsAReproOfAnotherTarget() throws {
      let failure = try #require(GuardedInsertArray.spec.check(smallConfiguration()).failure)
      let repro = try Repro.read(from: try #require(failure.reproPath))
      #expect(throws: ReproError.self) { try OneLockCounter.spec.replay(repro) }
    }

    @Test func timeLimitThatCutsTheSearchShortMakesItInconclusive() {
      var configuration = smallConfiguration()
      configuration.scenarios = 1_000_000
      configuration.timeLimit = .milliseconds(200)
      let report = OneLockCounter.spec.check(configuration)
      #expect(report.verdict == .inconclusive)
      guard case .timeLimit(let scenarios, let planned) = report.inconclusiveReason else {
        Issue.record("expected the time limit as the reason, got \(report.outcome)")
        return
      }
      #expect(scenarios < planned)
      #expect(planned == 1_000_000)
    }

    @Test func specWithMisnamedOperationIsRejectedBeforeRunning() {
      let spec = Spec("Misnamed", make: OneLockCounter.init, model: CounterModel()) {
        Operation("incremnt") { (counter: OneLockCounter) in counter.increment() }
      }
      let report = spec.check(smallConfiguration())
      #expect(report.specError?.message.contains("no operation 'incremnt'") == true)
      #expect(report.invocations == 0)
    }

    @Test func operationReturningNothingWhereTheModelReturnsABoolIsASpecError() {
      let spec = Spec("VoidInsertSet", make: OneLockCounter.init, model: SetModel()) {
        Operation("insert", .int(in: 0...3)) { (counter: OneLockCounter, _: Int) in
          counter.increment()
        }
        Operation("count") { (counter: OneLockCounter) in counter.value }
      }
      let report = spec.check(smallConfiguration())
      #expect(
        report.specError?.message
          == "operation 'insert' of 'VoidInsertSet': it returns nothing, but the set model's "
          + "'insert' returns a Bool, so no result could ever match: make the closure return a Bool"
      )
      #expect(report.invocations == 0)
    }

    @Test func operationReturningAListWhereTheModelReturnsAnIntIsASpecError() {
      let spec = Spec("ListCount", make: OneLockCounter.init, model: ArrayModel()) {
        Operation("count") { (counter: OneLockCounter) in [counter.value] }
      }
      let report = spec.check(smallConfiguration())
      #expect(
        report.specError?.message.contains(
          "it returns a list, but the array model's 'count' returns an Int") == true)
      #expect(report.invocations == 0)
    }

    @Test func resultTypesThatCanMatchTheModelAreAccepted() {
      // `indexOf` returns an index or nil: a plain Int (say -1 for "not found") can still match.
      let spec = Spec("PlainIndex", make: GuardedInsertArray.init, model: ArrayModel()) {
        Operation("indexOf", .int(in: 0...3)) { (array: GuardedInsertArray, value: Int) in
          array.get(0) == value ? 0 : -1
        }
        Operation("get", .int(in: 0...3)) { (array: GuardedInsertArray, index: Int) in
          array.get(index)
        }
        Operation("append", .int(in: 0...3)) { (array: GuardedInsertArray, value: Int) in
          array.append(value)
        }
      }
      var configuration = smallConfiguration()
      configuration.scenarios = 1
      let report = spec.check(configuration)
      #expect(report.specError == nil, "\(report)")
    }
  }
}

extension Scenario {
  var allCallNames: [String] {
    (initial + parallel.flatMap { $0 } + post).map(\.operation)
  }
}
