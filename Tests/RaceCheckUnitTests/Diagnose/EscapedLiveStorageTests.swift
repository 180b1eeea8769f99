import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// A torn snapshot is named `escaped-live-storage` when the schedule shows it read on outside the queue while a write ran inside it.
  @Suite struct EscapedLiveStorageTests {
    /// Row 2's failure for schedule seed 8: the snapshot read element 0 before `replace(0, 1)` and element 1 after `replace(1, 2)`.
    static let tornSnapshot = History(operations: [
      .made(0, "append", [0], 1, 2),
      .made(0, "snapshot", [], 3, 4, result: .list([.int(0)])),
      .made(0, "append", [0], 5, 6),
      .made(1, "snapshot", [], 7, 14, result: .list([.int(0), .int(2)])),
      .made(0, "replace", [0, 1], 8, 9),
      .made(0, "replace", [1, 2], 10, 11),
    ])

    static func read(by reader: Int, against writer: Int) -> EscapedRead {
      EscapedRead(
        queue: "com.lock.array", reader: tornSnapshot.operations[reader],
        writer: tornSnapshot.operations[writer])
    }

    @Test func snapshotReadingOnOutsideTheQueueWhileWritesRanInsideItIsEscapedLiveStorage() {
      let diagnosis = Diagnoser.diagnose(
        Self.tornSnapshot, spec: Self.spec,
        escapedReads: [Self.read(by: 3, against: 4), Self.read(by: 3, against: 5)])
      #expect(diagnosis.pattern == .escapedLiveStorage, "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.hasPrefix(
          "snapshot on thread 1 returned [0, 2] where the model returns"),
        "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.contains(
          "while replace(0, 1) on thread 0 and replace(1, 2) on thread 0 wrote inside the queue"),
        "\(diagnosis.evidence)")
    }

    @Test func withoutTheScheduleShowingTheReadTheResultsAloneDoNotNameIt() {
      let diagnosis = Diagnoser.diagnose(Self.tornSnapshot, spec: Self.spec)
      #expect(diagnosis.pattern != .escapedLiveStorage, "\(diagnosis.evidence)")
    }

    @Test func readAfterLeavingTheQueueThatEveryOrderStillFailsWithoutIsNotNamed() {
      // The first snapshot returned what no state held, and it read nothing outside the queue:
      // setting the torn snapshot's result aside explains nothing.
      var history = Self.tornSnapshot
      history.operations[1].result = .list([.int(3)])
      let reads = [
        EscapedRead(
          queue: "com.lock.array", reader: history.operations[3], writer: history.operations[4])
      ]
      let diagnosis = Diagnoser.diagnose(history, spec: Self.spec, escapedReads: reads)
      #expect(diagnosis.pattern != .escapedLiveStorage, "\(diagnosis.evidence)")
    }

    /// An array spec for the diagnoser alone: its operations never run.
    static let spec = Spec("EnumeratedArray", make: GuardedInsertArray.init, model: ArrayModel()) {
      Operation("append", .int(in: 0...3)) { (_: GuardedInsertArray, _: Int) in }
      Operation("replace", .int(in: 0...3), .int(in: 0...3)) {
        (_: GuardedInsertArray, _: Int, _: Int) in
      }
      Operation("snapshot") { (_: GuardedInsertArray) in [Int?]() }
    }
  }
}
