import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine
@testable import RaceCheckHistory

// The proof without search of a stale read (StaleRead): an observation of a value every
// possible store of which had been followed, in real time, by a completed store that
// returned before the observation was called. Each case on its own small history: the
// proof must fire where real time rules every order out, and stay silent wherever an
// order might exist — equal times, operations of unknown outcome, appends that may have
// produced the value, other keys. The brute-force comparison is in
// HistoryCheckerBruteForceTests.

extension UnitTestSuite {
  @Suite struct StaleReadTests {
    @Test func aReadOfAnOverwrittenValueIsProvedStale() throws {
      let proof = try staleProof(
        "register",
        [
          operation("write", [1], 0, 1),
          operation("write", [2], 2, 3),
          operation("read", [], 4, 5, result: 1),
        ])
      #expect(proof == .init(operation: 2, producers: [0], initialHeld: false, overwriter: 1))
    }

    @Test func theOverwriterIsTheStoreCalledLastBeforeTheRead() throws {
      let proof = try staleProof(
        "register",
        [
          operation("write", [1], 0, 1),
          operation("write", [2], 2, 3),
          operation("write", [3], 4, 5),
          operation("read", [], 6, 7, result: 1),
        ])
      #expect(proof?.overwriter == 2)
    }

    // At equal times a call counts as before a return: a store called when the producer
    // returns may come before it, and a read called when the store returns may come before that.
    @Test func equalTimesOrderNothing() throws {
      let storeCalledAsProducerReturns = try staleProof(
        "register",
        [
          operation("write", [1], 0, 2),
          operation("write", [2], 2, 3),
          operation("read", [], 4, 5, result: 1),
        ])
      #expect(storeCalledAsProducerReturns == nil)
      let readCalledAsStoreReturns = try staleProof(
        "register",
        [
          operation("write", [1], 0, 1),
          operation("write", [2], 2, 4),
          operation("read", [], 4, 5, result: 1),
        ])
      #expect(readCalledAsStoreReturns == nil)
    }

    @Test func aProducerCalledBeforeTheReadReturnsKeepsItFresh() throws {
      let proof = try staleProof(
        "register",
        [
          operation("write", [1], 0, 1),
          operation("write", [2], 2, 3),
          operation("write", [1], 5, 6),
          operation("read", [], 4, 5, result: 1),
        ])
      #expect(proof == nil)
    }

    // A write of unknown outcome may take effect at any time after its call.
    @Test func anInfoWriteIsAProducerThatIsNeverOverwritten() throws {
      let proof = try staleProof(
        "register",
        [
          operation("write", [1], 0, nil, status: .info),
          operation("write", [2], 2, 3),
          operation("read", [], 4, 5, result: 1),
        ])
      #expect(proof == nil)
    }

    // A write of unknown outcome may never have happened.
    @Test func anInfoWriteNeverOverwrites() throws {
      let proof = try staleProof(
        "cas-register",
        [
          operation("write", [1], 0, 1),
          operation("write", [2], 2, nil, status: .info),
          operation("cas", [0, 2], 2, nil, status: .info),
          operation("read", [], 4, 5, result: 1),
        ])
      #expect(proof == nil)
    }

    @Test func aReadOfTheInitialValueAfterACompletedStoreIsStale() throws {
      let initial = try staleProof(
        "register", initial: 0,
        [
          operation("write", [1], 0, 1),
          operation("read", [], 2, 3, result: 0),
        ])
      #expect(initial == .init(operation: 1, producers: [], initialHeld: true, overwriter: 0))
      let beforeAnyStore = try staleProof(
        "register", initial: 0,
        [
          operation("write", [1], 0, 2),
          operation("read", [], 1, 3, result: 0),
        ])
      #expect(beforeAnyStore == nil)
    }

    @Test func aSuccessfulCompareAndSetOverwritesAndObserves() throws {
      let overwrites = try staleProof(
        "cas-register",
        [
          operation("write", [1], 0, 1),
          operation("cas", [1, 2], 2, 3, result: true),
          operation("read", [], 4, 5, result: 1),
        ])
      #expect(overwrites == .init(operation: 2, producers: [0], initialHeld: false, overwriter: 1))
      let observes = try staleProof(
        "cas-register",
        [
          operation("write", [1], 0, 1),
          operation("write", [2], 2, 3),
          operation("cas", [1, 3], 4, 5, result: true),
        ])
      #expect(observes == .init(operation: 2, producers: [0], initialHeld: false, overwriter: 1))
    }

    // A failed compare-and-set stored nothing, so it overwrites nothing.
    @Test func aFailedCompareAndSetNeverOverwrites() throws {
      let proof = try staleProof(
        "cas-register",
        [
          operation("write", [1], 0, 1),
          operation("cas", [0, 2], 2, 3, result: false),
          operation("read", [], 4, 5, result: 1),
        ])
      #expect(proof == nil)
    }

    // cas(1, 1) stores what it saw; it is no producer of its own observation.
    @Test func aCompareAndSetStoringWhatItSawIsNotItsOwnProducer() throws {
      let proof = try staleProof(
        "cas-register",
        [
          operation("write", [1], 0, 1),
          operation("write", [2], 2, 3),
          operation("cas", [1, 1], 4, 5, result: true),
        ])
      #expect(proof == .init(operation: 2, producers: [0], initialHeld: false, overwriter: 1))
    }

    @Test func aGetOfAnOverwrittenStringIsProvedStale() throws {
      let byPut = try staleProof(
        "kv",
        [
          operation("put", ["k", "a"], 0, 1),
          operation("put", ["k", "b"], 2, 3),
          operation("get", ["k"], 4, 5, result: "a"),
        ])
      #expect(byPut == .init(operation: 2, producers: [0], initialHeld: false, overwriter: 1))
      // An append of something changes the string, whatever it was.
      let byAppend = try staleProof(
        "kv",
        [
          operation("put", ["k", "a"], 0, 1),
          operation("append", ["k", "b"], 2, 3),
          operation("get", ["k"], 4, 5, result: "a"),
        ])
      #expect(byAppend == .init(operation: 2, producers: [0], initialHeld: false, overwriter: 1))
    }

    // An append of s may leave any string that ends with s, and one of nothing changes nothing.
    @Test func appendsProduceWhatEndsWithThem() throws {
      let endsWithIt = try staleProof(
        "kv",
        [
          operation("put", ["k", "a"], 0, 1),
          operation("put", ["k", "b"], 2, 3),
          operation("append", ["k", "ba"], 2, 6),
          operation("get", ["k"], 4, 5, result: "bba"),
        ])
      #expect(endsWithIt == nil)
      let doesNotEndWithIt = try staleProof(
        "kv",
        [
          operation("put", ["k", "ba"], 0, 1),
          operation("put", ["k", "c"], 2, 3),
          operation("append", ["k", "x"], 2, 6),
          operation("get", ["k"], 4, 5, result: "ba"),
        ])
      #expect(
        doesNotEndWithIt == .init(operation: 3, producers: [0], initialHeld: false, overwriter: 1))
      let nothingAppended = try staleProof(
        "kv",
        [
          operation("put", ["k", "a"], 0, 1),
          operation("append", ["k", ""], 2, 3),
          operation("get", ["k"], 4, 5, result: "a"),
        ])
      #expect(nothingAppended == nil)
    }

    // A store into another key overwrites nothing of this one, split by key or whole.
    @Test func keysAreIndependent() throws {
      let operations = [
        operation("put", ["k", "a"], 0, 1),
        operation("put", ["j", "b"], 2, 3),
        operation("get", ["k"], 4, 5, result: "a"),
        operation("put", ["j", "c"], 6, 7),
        operation("get", ["j"], 8, 9, result: "b"),
      ]
      let expected = StaleProof(operation: 4, producers: [1], initialHeld: false, overwriter: 3)
      #expect(try staleProof("kv", operations) == expected)
      #expect(try staleProof("kv", operations, split: false) == expected)
    }

    @Test func theViolationCitesTheReadItsProducersAndTheOverwriter() throws {
      let history = RecordedHistory(
        model: "cas-register",
        operations: numbered([
          operation("write", [1], 0, 1),
          operation("write", [1], 2, 3),
          operation("cas", [1, 2], 4, 5, result: true),
          operation("read", [], 6, 7, result: 1),
        ]))
      let typed = try TypedHistory<CASRegisterModel>(history)
      let part = try #require(Partition.parts(of: typed, split: true).first)
      let proof = try #require(proofWithoutSearch(part, of: typed))
      let outcome = PartOutcome<CASRegisterModel>(
        result: .notLinearizable(longestPrefix: [], state: 0), elapsed: .zero, proof: proof)
      let violation = Explainer(history: typed, part: part, deadline: .distantFuture)
        .violation(outcome).violation
      #expect(
        violation.proof
          == .staleRead(
            operation: 3, value: 1, producers: [0, 1], initialHeld: false, overwriter: 2))
      #expect(violation.windowExtent == .upToProof)
      #expect(violation.window.contains(3))
    }

    // A register's history is tested before any search; a key's part of a key-value store
    // only once a quick search has failed, which on a small history it does not.
    @Test func registersAreProvedBeforeSearchingKeysAfterAQuickSearch() throws {
      let register = RecordedHistory(
        model: "register",
        operations: numbered([
          operation("write", [1], 0, 1),
          operation("write", [2], 2, 3),
          operation("read", [], 4, 5, result: 1),
        ]))
      let typedRegister = try TypedHistory<RegisterModel>(register)
      let registerPart = try #require(Partition.parts(of: typedRegister, split: true).first)
      let proved = PartOutcome.search(registerPart, of: typedRegister, budget: .unlimited)
      guard case .staleRead = proved.proof else {
        Issue.record("no stale read proved: \(String(describing: proved.proof))")
        return
      }
      #expect(proved.work.steps == 0)
      let store = RecordedHistory(
        model: "kv",
        operations: numbered([
          operation("put", ["k", "a"], 0, 1),
          operation("put", ["k", "b"], 2, 3),
          operation("get", ["k"], 4, 5, result: "a"),
        ]))
      let typedStore = try TypedHistory<KeyValueModel>(store)
      let storePart = try #require(Partition.parts(of: typedStore, split: true).first)
      let searched = PartOutcome.search(storePart, of: typedStore, budget: .unlimited)
      #expect(searched.kind == .notLinearizable)
      #expect(searched.proof == nil)
      #expect(proofWithoutSearch(storePart, of: typedStore) != nil)
    }

    // The family `bench checker --generate` writes: decided by the proof.
    @Test(arguments: [10, 20])
    func aGeneratedStaleReadIsProved(clients: Int) throws {
      let history = try GeneratedHistory(
        family: .casRegister(clients: clients, planted: .staleRead), operations: 10000, seed: 15
      ).recorded()
      let verdict = try HistoryChecker(explains: true).check(history)
      #expect(verdict.verdict == .notLinearizable)
      guard
        case .staleRead(let operation, let value, let producers, _, let overwriter)? =
          verdict.violation?.proof
      else {
        Issue.record("no stale read proved: \(String(describing: verdict.violation))")
        return
      }
      #expect(value == 5)
      #expect(history.operations[operation].name == "read")
      #expect(producers.count == 1 && history.operations[producers[0]].arguments == [5])
      #expect(history.operations[overwriter].return! < history.operations[operation].call)
    }
  }
}

/// A stale read's proof as file indexes, without its value.
private struct StaleProof: Hashable {
  var operation: Int
  var producers: [Int]
  var initialHeld: Bool
  var overwriter: Int
}

/// The stale read proved in `operations` of `model`, as file indexes; nil when none is.
///
/// Asserts, too, that wherever the proof fires the plain search agrees there is no order.
private func staleProof(
  _ model: String, initial: Value? = nil, _ operations: [RecordedHistory.Operation],
  split: Bool = true
) throws -> StaleProof? {
  let history = RecordedHistory(model: model, initial: initial, operations: numbered(operations))
  func open<M: HistoryModel>(_: M.Type) throws -> StaleProof? {
    let typed = try TypedHistory<M>(history)
    for part in Partition.parts(of: typed, split: split) {
      guard case .staleRead(let read) = proofWithoutSearch(part, of: typed) else { continue }
      let plain = PartOutcome.search(part, of: typed, budget: .unlimited, proves: false)
      guard case .notLinearizable = plain.result else {
        Issue.record("a stale read proved where the search finds an order")
        return nil
      }
      return StaleProof(
        operation: part.operations[read.operation],
        producers: read.producers.map { part.operations[$0] }, initialHeld: read.initialHeld,
        overwriter: part.operations[read.overwriter])
    }
    return nil
  }
  let type = try #require(BuiltInModels.model(named: model))
  return try open(type)
}

/// The proof the checker finds in `part`: for a register, an impossible read first, else a stale one; for a key-value store, once a quick search has failed.
func proofWithoutSearch<Model: HistoryModel>(
  _ part: Partition<Model>, of history: TypedHistory<Model>
) -> ProofWithoutSearch? {
  let isInfo = part.operations.map { history.statuses[$0] == .info }
  if let keyValue = history as? TypedHistory<KeyValueModel> {
    return ProofWithoutSearch.inKeyValueStore(
      keyValue, members: part.operations, isInfo: isInfo,
      initial: part.initial as! KeyValueModel)
  }
  return ProofWithoutSearch.inRegister(
    history, members: part.operations, isInfo: isInfo, initial: part.initial)
}

/// `operations`, each by its own process.
private func numbered(_ operations: [RecordedHistory.Operation]) -> [RecordedHistory.Operation] {
  operations.enumerated().map { index, operation in
    var own = operation
    own.process = .int(index)
    return own
  }
}

/// A completed (or, without a return, `info`) operation, to be given its process by ``numbered(_:)``.
private func operation(
  _ name: String, _ arguments: [Value], _ call: Int64, _ end: Int64?, result: Value = .null,
  status: RecordedHistory.Operation.Status = .ok
) -> RecordedHistory.Operation {
  RecordedHistory.Operation(
    process: 0, name: name, arguments: arguments, call: call, return: end,
    result: result, status: status)
}
