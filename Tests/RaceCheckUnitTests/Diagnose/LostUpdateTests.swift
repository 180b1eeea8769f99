import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// A write lost to a concurrent write is named `lost-update`, never `data-race`: the results cannot tell unsynchronized writes from a stale whole-state write-back.
  @Suite struct LostUpdateTests {
    /// A dictionary of flags with the vocabulary's `set` and `get`.
    static let flags = Spec("Flags", make: Flags.init, model: DictionaryModel()) {
      Operation("set", .element(of: ["a", "b"]), .bool) { (_: Flags, _: String, _: Bool) in }
      Operation("get", .element(of: ["a", "b"])) { (_: Flags, _: String) -> Bool? in nil }
    }

    /// A subject the hand-built histories stand in for.
    final class Flags: Sendable {}

    // An `@Atomic` wrapper's `flags[key] = value`: thread 1 read the empty dictionary, thread 0
    // stored "a", and thread 1 stored its stale copy with "b" over it.
    static let lostSet = History(operations: [
      .made(0, "set", ["a", true], 0, 10),
      .made(1, "set", ["b", true], 1, 9),
      .made(0, "get", ["a"], 20, 21, result: .null),
      .made(1, "get", ["b"], 22, 23, result: .bool(true)),
    ])

    @Test func aSetLostToAnOverlappingSetIsALostUpdateNotADataRace() {
      let diagnosis = Diagnoser.diagnose(Self.lostSet, spec: Self.flags)
      #expect(diagnosis.pattern == .lostUpdate, "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.contains(
          #"set("a", true) on thread 0 overlapped set("b", true) on thread 1"#),
        "\(diagnosis.evidence)")
      #expect(diagnosis.evidence.contains("cannot tell"), "\(diagnosis.evidence)")
    }

    @Test func aWriteSeenLateWithNoOverlappingWriteIsStillADataRace() {
      // Nothing overlapped the set, so no concurrent write can have undone it: the read on the
      // same thread missed a write that had returned, as an asynchronous, unordered write does.
      let late = History(operations: [
        .made(0, "set", ["a", true], 0, 1),
        .made(0, "get", ["a"], 2, 3, result: .null),
        .made(1, "get", ["b"], 4, 5, result: .null),
      ])
      let diagnosis = Diagnoser.diagnose(late, spec: Self.flags)
      #expect(diagnosis.pattern == .dataRace, "\(diagnosis.evidence)")
    }
  }
}
