import Foundation
import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// A lost update is named `non-atomic-compound-update` when an operation is a client's compound of the type's own calls, never `data-race`.
  @Suite struct CompoundUpdateDiagnosisTests {
    /// Two overlapping increments of "a", then a read that saw one of them.
    static let lostIncrement = History(operations: [
      .made(0, "increment", ["a"], 1, 4),
      .made(1, "increment", ["a"], 2, 3),
      .made(0, "get", ["a"], 5, 6, result: .int(1)),
    ])

    @Test func lostIncrementOfAClientsCompoundOperationIsANonAtomicCompoundUpdate() {
      let diagnosis = Diagnoser.diagnose(Self.lostIncrement, spec: SerialDictionary.spec)
      #expect(diagnosis.pattern == .nonAtomicCompoundUpdate, "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.contains(
          #"increment("a") on thread 0 overlapped increment("a") on thread 1"#),
        "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.contains(#"get("a") returned 1 where the model expects 2"#),
        "\(diagnosis.evidence)")
      #expect(diagnosis.evidence.contains("each call increment makes is atomic"))
    }

    @Test func anIncrementThatOverwroteASetFromAStaleReadIsANonAtomicCompoundUpdate() {
      // The increment read 5, the set stored 0, and the increment's write stored 6 over it:
      // dropping the increment explains nothing, its read and write apart explain the 6.
      let history = History(operations: [
        .made(0, "set", ["a", 5], 0, 1),
        .made(1, "increment", ["a"], 2, 10),
        .made(0, "set", ["a", 0], 4, 5),
        .made(0, "get", ["a"], 11, 12, result: .int(6)),
      ])
      let diagnosis = Diagnoser.diagnose(history, spec: Self.withSet)
      #expect(diagnosis.pattern == .nonAtomicCompoundUpdate, "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.contains(
          #"increment("a") on thread 1 overlapped set("a", 0) on thread 0"#),
        "\(diagnosis.evidence)")
      #expect(diagnosis.evidence.contains("stale read"), "\(diagnosis.evidence)")
      // Had the set come after the increment returned, nothing would explain the 6.
      var ordered = history
      ordered.operations[2].call = 10
      ordered.operations[2].return = 10
      ordered.operations[1].return = 3
      #expect(Diagnoser.diagnose(ordered, spec: Self.withSet).pattern == .unclassified)
    }

    @Test func counterIncrementThatOverwroteASetFromAStaleReadIsANonAtomicCompoundUpdate() {
      // The built-in counter's increment read 5, the set stored 0, and the increment stored 6.
      let history = History(operations: [
        .made(0, "set", [5], 0, 1),
        .made(1, "increment", [], 2, 10),
        .made(0, "set", [0], 4, 5),
        .made(0, "get", [], 11, 12, result: .int(6)),
      ])
      let diagnosis = Diagnoser.diagnose(history, spec: Self.counterWithSet)
      #expect(diagnosis.pattern == .nonAtomicCompoundUpdate, "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.hasPrefix("increment on thread 1 overlapped set(0) on thread 0"),
        "\(diagnosis.evidence)")
      #expect(diagnosis.evidence.contains("stale read"), "\(diagnosis.evidence)")
      #expect(diagnosis.evidence.contains("because each read and write is atomic"))
    }

    /// `SplitLockCounter`'s spec with a `set` of the built-in counter's vocabulary.
    static var counterWithSet: Spec<SplitLockCounter, CounterModel> {
      var spec = SplitLockCounter.spec
      spec.operations.append(
        Operation("set", .int(in: 0...3)) { (counter: SplitLockCounter, value: Int) in
          counter.value = value
        })
      return spec
    }

    /// `SerialDictionary`'s spec with its `set` too.
    static var withSet: Spec<SerialDictionary, DictionaryModel> {
      var spec = SerialDictionary.spec
      spec.operations.append(
        Operation("set", .element(of: ["a", "b"]), .int(in: 0...3)) {
          (dictionary: SerialDictionary, key: String, value: Int) in dictionary.set(value, key)
        })
      return spec
    }

    @Test func readNoLostUpdateExplainsIsNotNamed() {
      // A read of 3 after two increments from nothing: no lost update gives it.
      var history = Self.lostIncrement
      history.operations[2].result = .int(3)
      #expect(Diagnoser.diagnose(history, spec: SerialDictionary.spec).pattern == .unclassified)
    }

    @Test func incrementsThatDidNotOverlapLoseNothing() {
      // One increment after the other: dropping either is not a race, so nothing is named.
      var history = Self.lostIncrement
      history.operations[1].call = 5
      history.operations[1].return = 6
      history.operations[2].call = 7
      history.operations[2].return = 8
      #expect(Diagnoser.diagnose(history, spec: SerialDictionary.spec).pattern == .unclassified)
    }

    @Test func lateWritesDoNotExplainAnOperationWithItsOwnModel() {
      // A read that missed an earlier increment: the late-write hypothesis knows only the
      // vocabulary's steps, and would take the increment for a call that changes nothing.
      let history = History(operations: [
        .made(0, "increment", ["a"], 1, 2),
        .made(1, "get", ["a"], 3, 4, result: .null),
      ])
      #expect(Diagnoser.diagnose(history, spec: SerialDictionary.spec).pattern == .unclassified)
    }

    @Test func concurrentOnlyFailureNeedsEveryCallToBeOneVocabularyCall() {
      let reads = Scenario(parallel: [[call("get", "a")], [call("get", "b")]])
      let increments = Scenario(parallel: [[call("increment", "a")], [call("get", "a")]])
      #expect(ConcurrentOnlyFailure.applies(to: SerialDictionary.spec, scenario: reads))
      #expect(!ConcurrentOnlyFailure.applies(to: SerialDictionary.spec, scenario: increments))
    }

    @Test func counterLostUpdateKeepsItsEvidence() {
      let history = History(operations: [
        .made(0, "increment", [], 1, 4),
        .made(1, "increment", [], 2, 3),
        .made(0, "get", [], 5, 6, result: .int(1)),
      ])
      let diagnosis = Diagnoser.diagnose(history, spec: SplitLockCounter.spec)
      #expect(diagnosis.pattern == .nonAtomicCompoundUpdate)
      #expect(
        diagnosis.evidence.contains("increment on thread 0 overlapped increment on thread 1"),
        "\(diagnosis.evidence)")
      #expect(diagnosis.evidence.contains("get returned 1 where the model expects 2"))
    }

    // The lost update needs the two increments' calls to interleave, which a loaded machine
    // may not give every seed: every failure found must be named right, and some seed must find
    // one. Idle, each of these seeds finds it in its first or second scenario.
    @Test func checkedInProcessEveryLostIncrementFoundIsANonAtomicCompoundUpdate() {
      var found = 0
      for seed: UInt64 in 1...8 {
        let configuration = Configuration(
          seed: seed, scenarios: 20, invocations: 1_000, shrinkTimeLimit: .seconds(1),
          reproDirectory: FileManagerTemporary.directory, isolated: false)
        let report = SerialDictionary.spec.check(configuration)
        guard let failure = report.failure else { continue }
        found += 1
        #expect(
          failure.diagnosis.pattern == .nonAtomicCompoundUpdate, "seed \(seed):\n\(report)")
      }
      #expect(found > 0, "no seed found the lost increment")
    }

    private func call(_ operation: String, _ key: String) -> Scenario.Call {
      Scenario.Call(operation, [.string(key)])
    }
  }
}
