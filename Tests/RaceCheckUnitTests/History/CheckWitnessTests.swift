import Foundation
import RaceCheck
import Testing

// `racecheck check --witness`: a linearizable history's order as the search found it, in
// the text and in the JSON, each operation cited by its line. Every witness is replayed
// through the model: each operation after those that returned before it was called, each
// known result the model's.

extension UnitTestSuite {
  @Suite struct CheckWitnessTests {
    @Test(arguments: [1, 2, 3])
    func witnessOfAGeneratedCASRegisterHistoryReplaysThroughTheModel(seed: UInt64) throws {
      let history = generatedCASRegisterHistory(seed: seed, count: 300, nilReads: false)
      let verdict = try HistoryChecker().check(history)
      #expect(verdict.verdict == .linearizable)
      let witness = try #require(verdict.parts.first?.witness)
      try expectLinearization(witness, of: history, as: CASRegisterModel.self)
    }

    @Test(arguments: [4, 5])
    func witnessWithUnknownNilReadsHasThemBackInPlace(seed: UInt64) throws {
      let history = generatedCASRegisterHistory(seed: seed, count: 300, nilReads: true)
      var checker = HistoryChecker()
      checker.nilReads = .unknown
      let verdict = try checker.check(history)
      #expect(verdict.verdict == .linearizable)
      let witness = try #require(verdict.parts.first?.witness)
      #expect(
        witness.contains {
          history.operations[$0].name == "read" && history.operations[$0].result.isNull
        })
      try expectLinearization(witness, of: history, as: CASRegisterModel.self, nilReadsFit: true)
    }

    @Test func witnessOfAPartitionedHistoryIsPerKey() throws {
      let history = try RecordedHistory(bytes: Array(keyedHistory.utf8))
      let verdict = try HistoryChecker().check(history)
      #expect(verdict.parts.map(\.key) == ["a", "b"])
      for part in verdict.parts {
        let witness = try #require(part.witness)
        #expect(witness.allSatisfy { history.operations[$0].arguments.first == .string(part.key!) })
        try expectLinearization(witness, of: history, as: KeyValueModel.self)
      }
    }

    @Test func witnessOfAKeyedHistoryCheckedWholeReplaysThroughTheModel() throws {
      let history = try RecordedHistory(bytes: Array(keyedHistory.utf8))
      let verdict = try HistoryChecker(partitions: false).check(history)
      #expect(verdict.parts.map(\.key) == [nil])
      let witness = try #require(verdict.parts.first?.witness)
      #expect(witness.count == history.operations.count)
      try expectLinearization(witness, of: history, as: KeyValueModel.self)
    }

    @Test func textListsTheWitnessByLineWithNilResults() throws {
      let result = try CheckCLI.check(
        contents: nilReadAfterWrite,
        arguments: [
          "--format", "jepsen", "--model", "register", "--nil-read", "unknown", "--witness",
        ])
      #expect(result.status == 0)
      #expect(
        Array(result.output.dropFirst()) == [
          "", "A linearization: 2 operations, in this order:",
          "    lines 2–3 process 0: write(1)",
          "    lines 4–5 process 1: read → nil",
        ])
    }

    @Test func textHasNoWitnessWithoutTheFlag() throws {
      let result = try CheckCLI.check(contents: keyedHistory)
      #expect(result.status == 0)
      #expect(result.output.count == 1)
    }

    @Test func jsonCarriesEachPartsWitnessWithItsLines() throws {
      let result = try CheckCLI.check(contents: keyedHistory, arguments: ["--json", "--witness"])
      #expect(result.status == 0)
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(result.output.joined().utf8))
          as? [String: Any])
      let parts = try #require(document["parts"] as? [[String: Any]])
      let history = try RecordedHistory(bytes: Array(keyedHistory.utf8))
      for part in parts {
        let witness = try #require(part["witness"] as? [Int])
        #expect(part["witnessLines"] as? [Int] == witness.map { $0 + 2 })
        try expectLinearization(witness, of: history, as: KeyValueModel.self)
      }
      let without = try CheckCLI.check(contents: keyedHistory, arguments: ["--json"])
      #expect(!without.output.joined().contains("witness"))
    }

    @Test func notLinearizableHistoryHasNoWitness() throws {
      let result = try CheckCLI.check(
        contents: nilReadAfterWrite,
        arguments: ["--format", "jepsen", "--model", "register", "--json", "--witness"])
      #expect(result.status == 1)
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(result.output.joined().utf8))
          as? [String: Any])
      let parts = try #require(document["parts"] as? [[String: Any]])
      #expect(parts.first?["witness"] is NSNull)
    }
  }
}

/// A kv history file, one operation a line from line 2, over keys "a" and "b".
private let keyedHistory = #"""
  {"racecheck": 1, "model": "kv", "operations": [
    {"process": 0, "op": "put", "args": ["a", "x"], "call": 0, "return": 10},
    {"process": 1, "op": "get", "args": ["a"], "call": 5, "return": 6, "result": ""},
    {"process": 2, "op": "append", "args": ["b", "y"], "call": 0, "return": 20},
    {"process": 3, "op": "get", "args": ["b"], "call": 15, "return": 30, "result": "y"},
    {"process": 1, "op": "get", "args": ["a"], "call": 11, "return": 12, "result": "x"}
  ]}
  """#

/// Checks that `witness` is a linearization of the operations it lists and holds every `ok` one of its key.
///
/// `nilReadsFit` lets a read that returned nil fit every state, as `--nil-read unknown` does.
func expectLinearization<Model: HistoryModel>(
  _ witness: [Int], of history: RecordedHistory, as _: Model.Type, nilReadsFit: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let operations = history.operations
  #expect(Set(witness).count == witness.count, "an operation twice", sourceLocation: sourceLocation)
  #expect(
    witness.allSatisfy { operations[$0].status != .fail }, "a failed operation",
    sourceLocation: sourceLocation)
  // Every operation known to have taken effect on the witness's key (the first argument of a keyed model).
  let keys = Set(
    witness.map { Model.self == KeyValueModel.self ? operations[$0].arguments.first : nil })
  let expected = operations.indices.filter {
    operations[$0].status == .ok
      && keys.contains(Model.self == KeyValueModel.self ? operations[$0].arguments.first : nil)
  }
  #expect(Set(expected).isSubset(of: Set(witness)), sourceLocation: sourceLocation)
  for (position, later) in witness.enumerated() {
    for earlier in witness[..<position] {
      let returned = operations[later].return ?? .max
      #expect(
        !(returned < operations[earlier].call),
        "\(later) returned before \(earlier) was called, yet comes after it",
        sourceLocation: sourceLocation)
    }
  }
  var state = try history.initial.map { try Model(state: $0) } ?? Model()
  for index in witness {
    let operation = operations[index]
    let returned = state.apply(try Model.step(operation.name, operation.arguments))
    let fitsAnything =
      operation.status == .info
      || (nilReadsFit && operation.name == "read" && operation.result.isNull)
    #expect(
      fitsAnything || returned == operation.result,
      "operation \(index) returned \(operation.result), the model \(returned)",
      sourceLocation: sourceLocation)
  }
}

/// A legal cas-register history: each operation takes effect at its own instant, 100 apart, and spans up to 150 either side, so many overlap.
///
/// Some compare-and-sets fail (left out), some writes have an unknown outcome (half of
/// them took effect); with `nilReads`, some reads returned nil whatever the register held.
func generatedCASRegisterHistory(seed: UInt64, count: Int, nilReads: Bool) -> RecordedHistory {
  var random = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
  func next(_ bound: Int) -> Int {
    random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((random >> 33) % UInt64(bound))
  }
  var model = CASRegisterModel(state: 0)
  var operations: [RecordedHistory.Operation] = []
  for index in 0..<count {
    let point = Int64(index * 100)
    let call = point - Int64(next(150))
    let end = point + Int64(next(150))
    var operation = RecordedHistory.Operation(
      process: .int(index), name: "read", arguments: [], call: call, return: end)
    switch next(10) {
    case 0..<4:
      operation.result = model.apply(.read)
      if nilReads && next(3) == 0 { operation.result = nil }
    case 4..<6:
      let value = Value.int(next(3))
      operation.name = "write"
      operation.arguments = [value]
      if next(6) == 0 {
        operation.status = .info
        operation.return = nil
        if next(2) == 0 { _ = model.apply(.write(value)) }
      } else {
        _ = model.apply(.write(value))
      }
    case 6:
      operation.name = "cas"
      operation.arguments = [.int(next(3)), .int(next(3))]
      operation.status = .fail
    default:
      let (expected, new) = (Value.int(next(3)), Value.int(next(3)))
      operation.name = "cas"
      operation.arguments = [expected, new]
      operation.result = model.apply(.cas(expected: expected, new: new))
    }
    operations.append(operation)
  }
  return RecordedHistory(model: "cas-register", initial: 0, operations: operations)
}
