import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
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

    @Test func writerCrashingUnderASnapshotIsEscapedLiveStorageWhateverTheSpecCallsThem() {
      // `delete` is the model's `remove`, `items` its `snapshot`: the steps decide, not the names.
      let scenario = Scenario(
        initial: [call("add", 1)], parallel: [[call("delete", 0)], [call("items")]])
      let crash = evidence(
        signal: "SIGILL", message: "Index out of range", thread: 0,
        inFlight: [(0, call("delete", 0)), (1, call("items"))],
        functions: ["LockArray.removeObjectAtIndex(_:)", "_dispatch_sync_invoke_and_complete"])
      #expect(diagnose(scenario, crash, spec: Self.renamedWritesSpec) == .escapedLiveStorage)
      // Without the spec's steps, the same names tell nothing.
      #expect(diagnose(scenario, crash) == .unclassified)
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

    /// A C program's failed `assert` is the assertion, with its message: its condition may fail in an order of locked steps as well as in a race, so no race is named.
    @Test func abortOfAFailedCAssertionIsTheAssertionNotADataRace() {
      let scenario = Scenario(parallel: [[call("append", 1)], [call("append", 2)]])
      var crash = evidence(
        signal: "SIGABRT", message: nil, thread: 1, inFlight: [(1, call("append", 2))],
        functions: ["abort", "__assert_fail"])
      crash.standardError = "bank: bank.c:41: check: Assertion `balance == (x - y) - z' failed."
      #expect(!crash.isMemoryCorruption)
      #expect(
        crash.failedAssertion == "bank.c:41: check: Assertion `balance == (x - y) - z' failed.")
      #expect(diagnose(scenario, crash, crashesSequentially: false) == .unclassified)
      // The same death without the C library's message is an abort of corrupted memory.
      crash.standardError = nil
      #expect(diagnose(scenario, crash, crashesSequentially: false) == .dataRace)
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

    @Test func emptyArrayReadTrapIsAnUnsignedUnderflowWhenReadingPastALongerOnesEndReturnsNil() {
      var probed: [Scenario] = []
      let diagnosis = diagnoseReadTrap(probe: { scenario in
        probed.append(scenario)
        return .passed
      })
      #expect(diagnosis.pattern == .unsignedUnderflowBoundsCheck, "\(diagnosis.evidence)")
      // The probe appends, then reads past the end of the one-element array, on one thread.
      #expect(probed == [Scenario(initial: [call("append", 2), call("get", 1)])])
      #expect(
        diagnosis.evidence.contains(
          "get(1) after append(2), past the end of an array of 1 element"),
        "\(diagnosis.evidence)")
    }

    @Test func emptyArrayReadTrapIsNotAnUnsignedUnderflowWhenReadingPastALongerOnesEndTrapsToo() {
      let diagnosis = diagnoseReadTrap(probe: { scenario in
        .failed(
          .death(
            self.evidence(
              signal: "SIGILL", message: "Fatal error: Index out of range", thread: 0,
              inFlight: [(0, scenario.initial[1])])))
      })
      #expect(diagnosis.pattern == .unclassified, "\(diagnosis.evidence)")
      #expect(diagnosis.evidence.contains("the type checks no index"), "\(diagnosis.evidence)")
    }

    @Test func emptyArrayReadTrapIsNotAnUnsignedUnderflowWithoutAProbe() {
      // No append in the spec: nothing can make the array non-empty, so nothing tells the guard.
      let noAppend = diagnoseReadTrap(filling: nil, probe: { _ in .passed })
      #expect(noAppend.pattern == .unclassified, "\(noAppend.evidence)")
      #expect(
        noAppend.evidence.contains("no operation of the spec makes the array non-empty"),
        "\(noAppend.evidence)")
      // The probe could not run: no evidence either.
      let notRun = diagnoseReadTrap(probe: { _ in nil })
      #expect(notRun.pattern == .unclassified, "\(notRun.evidence)")
    }

    @Test func syncOnTheCurrentQueueInAWorkersBlockNamesTheBlockNotACallInFlight() {
      let functions = [
        "__DISPATCH_WAIT_FOR_QUEUE__", "_dispatch_sync_f_slow", "DispatchQueue.sync<A>(execute:)",
        "BarrierReentrantArray.isEmpty.getter", "closure #1 in BarrierReentrantArray.removeAll()",
        "_dispatch_call_block_and_release", "_dispatch_worker_thread",
      ]
      let scenario = Scenario(parallel: [[call("isEmpty")], [call("removeAll")]])
      let workerTrap = evidence(
        signal: "SIGILL", message: nil, thread: nil, inFlight: [(0, call("isEmpty"))],
        functions: functions)
      var onWorker = CrashDiagnoser(
        evidence: workerTrap, scenario: scenario, arrayAfter: { _ in nil },
        arrayStep: { _ in nil }, crashesSequentially: { nil })
      // No experiment could run: the block and its thread, and no call.
      let unproven = onWorker.diagnose()
      #expect(unproven.pattern == .syncOnCurrentQueue, "\(unproven.evidence)")
      #expect(!unproven.evidence.contains("in isEmpty"), "\(unproven.evidence)")
      #expect(
        unproven.evidence.hasPrefix(
          "libdispatch trapped in __DISPATCH_WAIT_FOR_QUEUE__ in a block (closure #1 in "
            + "BarrierReentrantArray.removeAll()) on thread 'DispatchWorker', which racecheck did "
            + "not start, so no call in flight made it and the call that submitted it is not "
            + "proven: "), "\(unproven.evidence)")
      // removeAll() made alone traps in the same block; isEmpty() alone passes.
      onWorker.runAlone = { probe, _, _ in
        probe.initial == [call("removeAll")] ? .failed(.death(workerTrap)) : .passed
      }
      let proven = onWorker.diagnose()
      #expect(
        proven.evidence.contains(
          "on thread 'DispatchWorker', which racecheck did not start, submitted by removeAll: "
            + "made alone on one thread, it traps the same way in that block"),
        "\(proven.evidence)")
      // On a runner thread, the call it had in flight is the caller.
      let onRunner = CrashDiagnoser(
        evidence: evidence(
          signal: "SIGILL", message: nil, thread: 1,
          inFlight: [(0, call("isEmpty")), (1, call("removeAll"))], functions: functions),
        scenario: scenario, arrayAfter: { _ in nil }, arrayStep: { _ in nil },
        crashesSequentially: { nil }
      ).diagnose()
      #expect(
        onRunner.evidence.hasPrefix(
          "libdispatch trapped in __DISPATCH_WAIT_FOR_QUEUE__ in removeAll: "),
        "\(onRunner.evidence)")
    }

    // MARK: - Helpers

    /// An array spec with every indexed write, a read at an index and a snapshot, for the model's states and steps; its operations never run here.
    private static let writesSpec = Spec(
      "IndexedWrites", make: GuardedInsertArray.init, model: ArrayModel()
    ) {
      Operation("append", .int(in: 0...3)) { (array: GuardedInsertArray, value: Int) in
        array.append(value)
      }
      Operation("insert", .int(in: 0...3), .int(in: 0...3)) {
        (array: GuardedInsertArray, value: Int, index: Int) in array.insert(value, at: index)
      }
      Operation("remove", .int(in: 0...3)) { (_: GuardedInsertArray, _: Int) in }
      Operation("replace", .int(in: 0...3), .int(in: 0...3)) {
        (_: GuardedInsertArray, _: Int, _: Int) in
      }
      Operation("get", .int(in: 0...3)) { (array: GuardedInsertArray, index: Int) in
        array.get(index)
      }
      Operation("snapshot") { (_: GuardedInsertArray) in [Int]() }
    }

    /// The same spec with its operations named after other methods: its calls' steps are the same.
    private static let renamedWritesSpec = Spec(
      "RenamedIndexedWrites", make: GuardedInsertArray.init, model: ArrayModel()
    ) {
      Operation("add", as: "append", .int(in: 0...3)) { (array: GuardedInsertArray, value: Int) in
        array.append(value)
      }
      Operation("delete", as: "remove", .int(in: 0...3)) { (_: GuardedInsertArray, _: Int) in }
      Operation("items", as: "snapshot") { (_: GuardedInsertArray) in [Int]() }
    }

    /// The diagnosis of `get(0)` trapping on an array the model holds empty, with `probe` running the index probe.
    private func diagnoseReadTrap(
      filling: Scenario.Call? = Scenario.Call("append", [.int(2)]),
      probe: @escaping (Scenario) -> IndexGuardProbe.Run?
    ) -> Diagnosis {
      let scenario = Scenario(initial: [call("get", 0)])
      var diagnoser = CrashDiagnoser(
        evidence: evidence(
          signal: "SIGILL", message: "Fatal error: Index out of range", thread: 0,
          inFlight: [(0, call("get", 0))]),
        scenario: scenario,
        arrayAfter: { calls in GuardedInsertArray.spec.arrayElements(after: calls) },
        arrayStep: { GuardedInsertArray.spec.arrayStep(of: $0) }, crashesSequentially: { nil })
      diagnoser.fillingCall = filling
      diagnoser.runAlone = { scenario, _, _ in probe(scenario) }
      return diagnoser.diagnose()
    }

    private func asksForAnotherRun(
      _ scenario: Scenario, _ evidence: CrashEvidence, after pattern: BugPattern
    ) -> Bool {
      CrashDiagnoser(
        evidence: evidence, scenario: scenario, arrayAfter: { _ in nil },
        arrayStep: { Self.writesSpec.arrayStep(of: $0) }, crashesSequentially: { nil }
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
      _ scenario: Scenario, _ evidence: CrashEvidence, crashesSequentially: Bool? = nil,
      spec: Spec<GuardedInsertArray, ArrayModel> = writesSpec
    ) -> BugPattern {
      CrashDiagnoser(
        evidence: evidence, scenario: scenario,
        arrayAfter: { calls in spec.arrayElements(after: calls) },
        arrayStep: { spec.arrayStep(of: $0) }, crashesSequentially: { crashesSequentially }
      ).diagnose().pattern
    }
  }
}
