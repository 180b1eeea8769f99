import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// A spec that names its operations after the subject's methods is diagnosed as one that uses the model's names: the diagnoses test the model's typed steps, not names.
  @Suite struct RenamedOperationsTests {
    /// A register named as its subject calls it, `store` and `load`; the subject is never run here.
    static let renamedRegister = Spec("Box", make: Untouched.init, model: RegisterModel()) {
      Operation("load", as: "read") { (_: Untouched) in "" }
      Operation("store", as: "write", .element(of: ["ab"])) { (_: Untouched, _: String) in }
    }

    /// The same register with the model's own names.
    static let register = Spec("Box", make: Untouched.init, model: RegisterModel()) {
      Operation("read") { (_: Untouched) in "" }
      Operation("write", .element(of: ["ab"])) { (_: Untouched, _: String) in }
    }

    /// A register whose operations have model closures of their own: the model cannot know their steps.
    static let ownModelRegister = Spec("Box", make: Untouched.init, model: RegisterModel()) {
      Operation("load") { (_: Untouched) in
        ""
      } model: { (register: inout RegisterModel) in
        register.value
      }
      Operation("store", .element(of: ["ab"])) { (_: Untouched, _: String) in
      } model: {
        (register: inout RegisterModel, value: String) in
        register.value = .string(value)
      }
    }

    /// A `load` that returned half of what `store` was writing.
    static func tornRead(store: String, load: String) -> History {
      History(operations: [
        .made(0, store, ["ab"], 0, 3),
        .made(1, load, [], 1, 2, result: "a"),
      ])
    }

    @Test func tornReadOfARenamedRegisterIsADataRaceAsUnderTheModelsNames() {
      let renamed = Diagnoser.diagnose(
        Self.tornRead(store: "store", load: "load"), spec: Self.renamedRegister)
      let named = Diagnoser.diagnose(
        Self.tornRead(store: "write", load: "read"), spec: Self.register)
      #expect(named.pattern == .dataRace, "\(named.evidence)")
      #expect(renamed.pattern == named.pattern, "\(renamed.evidence)")
      #expect(
        renamed.evidence.hasPrefix(#"load on thread 1 returned "a", a value no write stored"#))
    }

    @Test func tornReadThroughOwnModelClosuresIsUnclassified() {
      // A model closure may store anything, so a value no `write` step stored proves nothing.
      let diagnosis = Diagnoser.diagnose(
        Self.tornRead(store: "store", load: "load"), spec: Self.ownModelRegister)
      #expect(diagnosis.pattern == .unclassified, "\(diagnosis.evidence)")
    }

    @Test func droppedInsertAtCountOfARenamedArrayIsInsertAtCountRejected() {
      let spec = Spec("Shelf", make: Untouched.init, model: ArrayModel()) {
        Operation("put", as: "insert", .int(in: 0...3), .int(in: 0...3)) {
          (_: Untouched, _: Int, _: Int) in
        }
        Operation("size", as: "count") { (_: Untouched) in 0 }
      }
      let history = History(operations: [
        .made(0, "put", [7, 0], 0, 10),
        .made(0, "size", [], 20, 30, result: 0),
      ])
      let diagnosis = Diagnoser.diagnose(history, spec: spec)
      #expect(diagnosis.pattern == .insertAtCountRejected, "\(diagnosis.evidence)")
      #expect(diagnosis.evidence.hasPrefix("put(7, 0) on an array of 0 elements had no effect"))
    }

    @Test func lostIncrementOfARenamedCounterIsANonAtomicCompoundUpdate() {
      let spec = Spec("Clicks", make: Untouched.init, model: CounterModel()) {
        Operation("bump", as: "increment") { (_: Untouched) in }
        Operation("total", as: "get") { (_: Untouched) in 0 }
      }
      let history = History(operations: [
        .made(0, "bump", [], 1, 4),
        .made(1, "bump", [], 2, 3),
        .made(0, "total", [], 5, 6, result: 1),
      ])
      let diagnosis = Diagnoser.diagnose(history, spec: spec)
      #expect(diagnosis.pattern == .nonAtomicCompoundUpdate, "\(diagnosis.evidence)")
      #expect(
        diagnosis.evidence.contains(
          "bump on thread 0 overlapped bump on thread 1 and total returned 1 where the model expects 2"
        ),
        "\(diagnosis.evidence)")
    }

    @Test func historyFileNamesARenamedOperationByTheModelsName() {
      let recorded = Self.renamedRegister.recordedHistory(
        Self.tornRead(store: "store", load: "load"))
      #expect(recorded.operations.map(\.name) == ["write", "read"])
    }
  }
}

/// A subject the diagnoses never run: they read histories, not subjects.
struct Untouched: Sendable {}
