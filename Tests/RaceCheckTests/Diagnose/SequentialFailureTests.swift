import Foundation
import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// A failure that the scenario's calls show when made one after another is never named a race.
  @Suite struct SequentialFailureTests {
    /// `[1]`, then thread 1 sets index 0 while thread 0 counts; thread 1's setter ran first.
    static let setThenCount = Scenario(
      initial: [Scenario.Call("append", [.int(1)])],
      parallel: [[Scenario.Call("count")], [Scenario.Call("replace", [.int(0), .int(5)])]])

    /// A failing history of ``setThenCount``: the set inserted, so the count saw two elements.
    static let countSawTheInsertion = History(operations: [
      .made(0, "append", [.int(1)], 0, 1),
      .made(1, "replace", [.int(0), .int(5)], 2, 4),
      .made(0, "count", [], 3, 5, result: .int(2)),
    ])

    /// The diagnosis a stress session of `spec` gives `history` as a failure of `scenario`.
    static func diagnosis<Subject, Model>(
      of spec: Spec<Subject, Model>, _ history: History, _ scenario: Scenario
    ) -> Diagnosis {
      let session = CheckSession(
        spec: spec, configuration: Configuration(seed: 1, invocations: 50, isolated: false),
        runner: StressScenarioRunner(spec: spec))
      defer { session.runner.shutDown() }
      let failure = ObservedFailure(
        evidence: .nonLinearizable(
          history, Explanation(longestPrefix: [], state: "[1]", candidates: [])))
      return session.diagnose(failure, of: scenario, index: 0).diagnosis
    }

    @Test func setterThatInsertsIsNotARaceThoughItsThreadsInTurnPass() {
      // Thread 0's count, then thread 1's set, passes; the set first fails every time.
      let diagnosis = Self.diagnosis(
        of: InsertingSetterArray.spec, Self.countSawTheInsertion, Self.setThenCount)
      #expect(diagnosis.pattern == .unclassified, "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.hasPrefix(
          "the same calls fail when made one after another on one thread (replace(0, 5), count, "
        ), "\(diagnosis.evidence)")
    }

    @Test func failureOfCallsThatPassInEveryOrderIsStillADataRace() {
      // The history cannot come from this subject's calls made one after another, in any order.
      let history = History(operations: [
        .made(0, "append", [.int(1)], 0, 1),
        .made(1, "append", [.int(2)], 2, 4),
        .made(0, "count", [], 3, 5, result: .int(3)),
      ])
      let scenario = Scenario(
        initial: [Scenario.Call("append", [.int(1)])],
        parallel: [[Scenario.Call("count")], [Scenario.Call("append", [.int(2)])]])
      let diagnosis = Self.diagnosis(of: LockedArray.spec, history, scenario)
      #expect(diagnosis.pattern == .dataRace, "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.contains(
          "all 100 invocations with the same calls made one after another (in each of the 2 orders "
            + "the threads allow) pass"), "\(diagnosis.evidence)")
    }

    @Test func checkedInProcessASetterThatInsertsIsNeverNamedARace() {
      for seed: UInt64 in 1...9 {
        let configuration = Configuration(
          seed: seed, scenarios: 10, invocations: 200, shrinkTimeLimit: .seconds(1),
          reproDirectory: FileManagerTemporary.directory, isolated: false)
        let report = InsertingSetterArray.spec.check(configuration)
        let failure = report.failure
        #expect(failure != nil, "seed \(seed): the setter's bug shows on one thread every time")
        #expect(failure?.diagnosis.pattern == .unclassified, "seed \(seed):\n\(report)")
      }
    }

    @Test func ordersKeepEachThreadsCallsInTheirOrderWithThreadZeroFirst() {
      let a = Scenario.Call("append", [.int(1)])
      let b = Scenario.Call("count")
      let c = Scenario.Call("replace", [.int(0), .int(2)])
      let orders = SequentialFailure.orders(of: Scenario(parallel: [[a, b], [c]]))
      #expect(orders == [[a, b, c], [a, c, b], [c, a, b]])
    }
  }
}
