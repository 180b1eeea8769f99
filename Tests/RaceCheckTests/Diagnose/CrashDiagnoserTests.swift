import Testing

@testable import RaceCheck

extension RaceCheckTestSuite {
  /// Crashes are named from their evidence: the crashing thread, the signal, the stack and the calls in flight.
  @Suite struct CrashDiagnoserTests {
    @Test func trapOnADispatchWorkerAfterAWriteInvalidInSomeOrderIsAnUncheckedAsyncWrite() {
      // Either remove(0) may come second, on an array that is empty by then.
      let scenario = Scenario(
        initial: [call("append", 1)], parallel: [[call("remove", 0)], [call("remove", 0)]])
      let pattern = diagnose(
        scenario,
        evidence(signal: "SIGILL", message: "Index out of range", thread: nil, inFlight: []))
      #expect(pattern == .uncheckedIndexInAsyncWrite)
    }

    @Test func trapOnADispatchWorkerAfterWritesValidInEveryOrderIsNotAnUncheckedAsyncWrite() {
      let scenario = Scenario(
        initial: [call("append", 1), call("append", 2)],
        parallel: [[call("remove", 0)], [call("replace", 0, 3)]])
      let pattern = diagnose(
        scenario,
        evidence(signal: "SIGILL", message: "Index out of range", thread: nil, inFlight: []))
      #expect(pattern == .unclassified)
    }

    @Test func writerCrashingInsideTheQueueWhileASnapshotReadsOutsideItIsEscapedLiveStorage() {
      let scenario = Scenario(
        initial: [call("append", 1)], parallel: [[call("remove", 0)], [call("snapshot")]])
      let pattern = diagnose(
        scenario,
        evidence(
          signal: "SIGILL", message: "Index out of range", thread: 0,
          inFlight: [(0, call("remove", 0)), (1, call("snapshot"))],
          functions: ["LockArray.removeObjectAtIndex(_:)", "_dispatch_sync_invoke_and_complete"]))
      #expect(pattern == .escapedLiveStorage)
    }

    @Test func segmentationFaultWithThreadsRunningTogetherIsADataRace() {
      let scenario = Scenario(parallel: [[call("append", 1)], [call("append", 2)]])
      let pattern = diagnose(
        scenario,
        evidence(
          signal: "SIGSEGV", message: nil, thread: 1, inFlight: [(1, call("append", 2))],
          functions: ["swift_retain", "UnsafeArray.addObject(_:)"]))
      #expect(pattern == .dataRace)
    }

    @Test func segmentationFaultOnOneThreadInItsFirstRunIsNotCalledADataRace() {
      let scenario = Scenario(initial: [call("append", 1), call("snapshot")])
      let pattern = diagnose(
        scenario,
        evidence(
          signal: "SIGSEGV", message: nil, thread: 0, inFlight: [(0, call("snapshot"))],
          functions: ["swift_retain"]))
      #expect(pattern == .unclassified)
    }

    @Test func segmentationFaultOnOneThreadAfterIdenticalRunsSurvivedIsADataRace() {
      // Run 166 crashed where 165 runs of the same one-thread scenario did not: timing
      // mattered, so a thread the code under test started (a dispatch block) ran alongside.
      let scenario = Scenario(initial: [call("append", 1), call("snapshot")])
      var crash = evidence(
        signal: "SIGSEGV", message: nil, thread: 0, inFlight: [(0, call("snapshot"))],
        functions: ["swift_retain"])
      crash.invocation = 165
      #expect(diagnose(scenario, crash) == .dataRace)
      crash.signal = "SIGILL"
      #expect(diagnose(scenario, crash) == .unclassified)
    }

    @Test func trapInTheParallelPartThatRunningInTurnDoesNotRepeatIsADataRace() {
      // The same call is in the init part too; the recorder's index says which one crashed.
      let scenario = Scenario(
        initial: [call("snapshot"), call("append", 0)],
        parallel: [[call("snapshot")], [call("append", 1)]])
      var crash = evidence(
        signal: "SIGILL", message: "Index out of range", thread: 0,
        inFlight: [(0, call("snapshot"))])
      crash.inFlight[0].index = 2
      #expect(diagnose(scenario, crash, crashesSequentially: false) == .dataRace)
      #expect(diagnose(scenario, crash, crashesSequentially: true) == .unclassified)
    }

    @Test func trapInRaceCheckReadingAReturnedValueWithThreadsTogetherIsADataRace() {
      let scenario = Scenario(parallel: [[call("snapshot")], [call("append", 1)]])
      var crash = evidence(
        signal: "SIGILL", message: "Index out of range", thread: 0,
        inFlight: [(0, call("snapshot"))])
      crash.layer = "racecheck"
      #expect(diagnose(scenario, crash) == .dataRace)
      crash.layer = "user"
      #expect(diagnose(scenario, crash) == .unclassified)
    }

    @Test func onlyADeathThatNamesNoSpecificBugAsksForAnotherRun() {
      let scenario = Scenario(
        initial: [call("append", 1)], parallel: [[call("remove", 0)], [call("snapshot")]])
      let outside = evidence(
        signal: "SIGSEGV", message: nil, thread: 1, inFlight: [(1, call("snapshot"))],
        functions: ["swift_retain", "closure #5 in Spec.snapshot"])
      var inside = outside
      inside.functions.append("_dispatch_sync_invoke_and_complete")
      // Memory corruption in a read outside any queue: racing code, or storage handed out live.
      #expect(asksForAnotherRun(scenario, outside, after: .dataRace))
      #expect(!asksForAnotherRun(scenario, inside, after: .dataRace))
      #expect(asksForAnotherRun(scenario, inside, after: .unclassified))
      #expect(!asksForAnotherRun(scenario, outside, after: .escapedLiveStorage))
      var trap = outside
      trap.signal = "SIGILL"
      #expect(!asksForAnotherRun(scenario, trap, after: .dataRace))
    }

    // MARK: - Helpers

    private func asksForAnotherRun(
      _ scenario: Scenario, _ evidence: CrashEvidence, after pattern: BugPattern
    ) -> Bool {
      CrashDiagnoser(
        evidence: evidence, scenario: scenario, arrayAfter: { _ in nil },
        crashesSequentially: { nil }
      ).anotherCrashMayTellMore(than: Diagnosis(pattern, evidence: ""))
    }

    private func call(_ operation: String, _ arguments: Int...) -> Scenario.Call {
      Scenario.Call(operation, arguments.map { .int($0) })
    }

    private func evidence(
      signal: String, message: String?, thread: Int?,
      inFlight: [(thread: Int, call: Scenario.Call)], functions: [String] = []
    ) -> CrashEvidence {
      CrashEvidence(
        kind: .crash, signal: signal, message: message, runnerThread: thread,
        threadName: thread == nil ? "DispatchWorker" : "racecheck-\(thread!)", invocation: 0,
        inFlight: inFlight.map { CrashEvidence.InFlightCall(thread: $0.thread, call: $0.call) },
        stack: "", threadStacks: [], functions: functions, detail: nil, standardError: nil)
    }

    private func diagnose(
      _ scenario: Scenario, _ evidence: CrashEvidence, crashesSequentially: Bool? = nil
    ) -> BugPattern {
      CrashDiagnoser(
        evidence: evidence, scenario: scenario,
        arrayAfter: { calls in GuardedInsertArray.spec.arrayElements(after: calls) },
        crashesSequentially: { crashesSequentially }
      ).diagnose().pattern
    }
  }
}
