import RaceCheck
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

    @Test func failureOfACustomModelIsUnclassified() throws {
      let spec = Spec("SplitLockCounterCustomModel", make: SplitLockCounter.init, model: 0) {
        Operation(
          "get", perform: { (counter: SplitLockCounter) in counter.value },
          model: { (count: inout Int) in count })
        Operation(
          "increment", perform: { (counter: SplitLockCounter) in counter.increment() },
          model: { (count: inout Int) in count += 1 })
      }
      let failure = try #require(spec.check(smallConfiguration(seed: 3)).failure)
      #expect(failure.diagnosis.pattern == .unclassified)
    }

    @Test func replayOfARecordedFailureCountsItsFailures() throws {
      let report = GuardedInsertArray.spec.check(smallConfiguration())
      let failure = try #require(report.failure)
      let repro = try Repro.read(from: try #require(failure.reproPath))
      let replay = try GuardedInsertArray.spec.replay(repro, invocations: 50)
      #expect(replay.invocations == 50)
      #expect(replay.failures == 50)
      #expect(replay.diagnosis?.pattern == .insertAtCountRejected)
    }

    @Test func replayRejectsAReproOfAnotherTarget() throws {
      let failure = try #require(GuardedInsertArray.spec.check(smallConfiguration()).failure)
      let repro = try Repro.read(from: try #require(failure.reproPath))
      #expect(throws: ReproError.self) { try OneLockCounter.spec.replay(repro, invocations: 1) }
    }

    @Test func timeLimitStopsTheSearch() {
      var configuration = smallConfiguration()
      configuration.scenarios = 1_000_000
      configuration.timeLimit = 0.2
      let report = OneLockCounter.spec.check(configuration)
      #expect(report.verdict == .pass)
      #expect(report.scenarios < 1_000_000)
    }

    @Test func specWithMisnamedOperationIsRejectedBeforeRunning() {
      let spec = Spec("Misnamed", make: OneLockCounter.init, model: CounterModel()) {
        Operation("incremnt") { (counter: OneLockCounter) in counter.increment() }
      }
      let report = spec.check(smallConfiguration())
      #expect(report.specError?.message.contains("no operation 'incremnt'") == true)
      #expect(report.invocations == 0)
    }
  }
}

extension Scenario {
  var allCallNames: [String] {
    (initial + parallel.flatMap { $0 } + post).map(\.operation)
  }
}
