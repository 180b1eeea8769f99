import Testing

@testable import RaceCheckEngine
@testable import RaceCheckHistory

// Differential tests of the whole history checker — decoding with a built-in model,
// partitioning by key, dropping `fail` and read-only `info` operations, the greedy
// placement of operations that change nothing, the fingerprint memo — against a brute
// force that tries every real-time-consistent order of the operations on the model
// itself. Every built-in model, thousands of small random histories each, with `ok`,
// `fail` and `info` operations; checked whole and split by key. Whole histories of `kv`
// and `dictionary` go through the search by key with backjumping (KeyedWholeSearch),
// tested again over three keys and against the split check on longer histories.

extension UnitTestSuite {
  @Suite struct HistoryCheckerBruteForceTests {
    @Test(arguments: BuiltInModels.names)
    func agreesWithBruteForce(model: String) throws {
      let generator = try #require(RandomOperations.forModel[model])
      let type = try #require(BuiltInModels.model(named: model))
      var tally = (histories: 0, linearizable: 0, withInfo: 0, withFail: 0, failures: 0)
      var firstFailure: String?
      for seed in [1, 2, 3, 0x5EED] as [UInt64] {
        var random = SplitMix64(seed: seed ^ UInt64(model.utf8.reduce(0) { $0 &* 31 &+ Int($1) }))
        for index in 0..<400 {
          let history = randomHistory(model, generator, index: index, using: &random, type: type)
          tally.histories += 1
          if history.operations.contains(where: { $0.status == .info }) { tally.withInfo += 1 }
          if history.operations.contains(where: { $0.status == .fail }) { tally.withFail += 1 }
          let expected = bruteForce(history, type)
          if expected { tally.linearizable += 1 }
          for partitions in [true, false] {
            let verdict = try HistoryChecker(partitions: partitions).check(history).verdict
            if verdict != (expected ? .linearizable : .notLinearizable) {
              tally.failures += 1
              if firstFailure == nil {
                firstFailure =
                  "seed \(seed) history \(index), partitions \(partitions): checker \(verdict), brute force \(expected)\n"
                  + describe(history)
              }
            }
          }
        }
      }
      #expect(
        tally.failures == 0, "\(tally.failures) disagreements; the first:\n\(firstFailure ?? "")")
      // Both verdicts, info and fail operations must be common, or the comparison proves little.
      let tenth = tally.histories / 10
      #expect(
        tally.linearizable >= tenth && tally.histories - tally.linearizable >= tenth, "\(tally)")
      #expect(tally.withInfo >= tenth && tally.withFail >= tenth, "\(tally)")
    }

    // A proof without search (ImpossibleRead) must never call a linearizable history
    // illegal: wherever it finds one, the brute force and the plain search agree there is
    // no order; it must also find some, or the comparison proves nothing.
    @Test(arguments: ["register", "cas-register"])
    func impossibleReadsAgreeWithBruteForce(model: String) throws {
      let generator = try #require(RandomOperations.forModel[model])
      let type = try #require(BuiltInModels.model(named: model))
      var tally = (histories: 0, proofs: 0, illegal: 0, wrong: [String]())
      var random = SplitMix64(seed: 0x1_3EAD ^ UInt64(model.utf8.count))
      for index in 0..<3000 {
        let history = randomHistory(
          model, generator, index: index, using: &random, type: type, operations: 1...8,
          processes: 1...4)
        tally.histories += 1
        let expected = bruteForce(history, type)
        if !expected { tally.illegal += 1 }
        let (proof, searchFails) = try proofAndSearch(history, type, split: true)
        let proved = proof != nil
        if proved { tally.proofs += 1 }
        if proved && (expected || !searchFails) {
          tally.wrong.append("history \(index):\n" + describe(history))
        }
      }
      #expect(
        tally.wrong.isEmpty,
        "\(tally.wrong.count) wrong proofs; the first:\n\(tally.wrong.first ?? "")")
      #expect(tally.proofs >= tally.illegal / 10 && tally.proofs > 0, "\(tally)")
    }

    // A stale read's proof (StaleRead) must never call a linearizable history illegal,
    // nor one the plain search finds an order for, and must fire exactly where its
    // definition, checked naively operation by operation, holds (unless an impossible
    // read is proved first): registers, compare-and-set registers, a key-value store by
    // key and whole, with equal times (the intervals share a clock of 21 ticks) and `info`
    // operations.
    @Test(arguments: ["register", "cas-register", "kv"])
    func staleReadsAgreeWithBruteForce(model: String) throws {
      let generator = try #require(RandomOperations.forModel[model])
      let type = try #require(BuiltInModels.model(named: model))
      var tally = (
        histories: 0, proofs: 0, stale: 0, illegal: 0, withInfo: 0, wrong: [String](),
        missed: [String]()
      )
      var random = SplitMix64(seed: 0x57A1E ^ UInt64(model.utf8.count))
      for index in 0..<4000 {
        let history = randomHistory(
          model, generator, index: index, using: &random, type: type, operations: 1...8,
          processes: 1...4)
        tally.histories += 1
        if history.operations.contains(where: { $0.status == .info }) { tally.withInfo += 1 }
        let expected = bruteForce(history, type)
        if !expected { tally.illegal += 1 }
        let stale = hasStaleReadByDefinition(history)
        if stale { tally.stale += 1 }
        for split in model == "kv" ? [true, false] : [true] {
          let (proof, searchFails) = try proofAndSearch(history, type, split: split)
          let proved: Bool
          if case .staleRead? = proof { proved = true } else { proved = false }
          if proved && split { tally.proofs += 1 }
          if proved && (expected || !searchFails || !stale) {
            tally.wrong.append("history \(index), split \(split):\n" + describe(history))
          }
          // The definition met, some proof must fire: this one, or an impossible read first.
          if stale && proof == nil {
            tally.missed.append("history \(index), split \(split):\n" + describe(history))
          }
        }
      }
      #expect(
        tally.wrong.isEmpty,
        "\(tally.wrong.count) wrong proofs; the first:\n\(tally.wrong.first ?? "")")
      #expect(
        tally.missed.isEmpty,
        "\(tally.missed.count) stale reads missed; the first:\n\(tally.missed.first ?? "")")
      #expect(tally.proofs >= 20, "\(tally.proofs) proofs of \(tally.illegal) illegal histories")
      #expect(tally.withInfo >= tally.histories / 10, "\(tally.withInfo) of \(tally.histories)")
    }

    // The whole search of a keyed model (KeyedWholeSearch) learns which keys a failure
    // depends on and jumps back past the others: three keys and up to four processes, so
    // that failures often involve several keys and jumps cross operations of others.
    @Test(arguments: ["kv", "dictionary"])
    func wholeSearchByKeyAgreesWithBruteForce(model: String) throws {
      let generator = try #require(RandomOperations.overThreeKeys[model])
      let type = try #require(BuiltInModels.model(named: model))
      var tally = (histories: 0, linearizable: 0, failures: 0)
      var firstFailure: String?
      var random = SplitMix64(seed: 0x3_4E75 ^ UInt64(model.utf8.count))
      for index in 0..<1200 {
        let history = randomHistory(
          model, generator, index: index, using: &random, type: type, operations: 4...8,
          processes: 2...4)
        tally.histories += 1
        let expected = bruteForce(history, type)
        if expected { tally.linearizable += 1 }
        let verdict = try HistoryChecker(partitions: false).check(history).verdict
        if verdict != (expected ? .linearizable : .notLinearizable) {
          tally.failures += 1
          if firstFailure == nil {
            firstFailure =
              "history \(index): checker \(verdict), brute force \(expected)\n"
              + describe(history)
          }
        }
      }
      #expect(
        tally.failures == 0, "\(tally.failures) disagreements; the first:\n\(firstFailure ?? "")")
      let tenth = tally.histories / 10
      #expect(
        tally.linearizable >= tenth && tally.histories - tally.linearizable >= tenth, "\(tally)")
    }

    // Too long for the brute force: the whole search must agree with the per-key checks,
    // which the brute force vouches for (locality: a keyed history is linearizable
    // exactly when each key's is).
    @Test func wholeAndSplitAgreeOnLongerKeyValueHistories() throws {
      let generator = try #require(RandomOperations.overThreeKeys["kv"])
      var random = SplitMix64(seed: 0x10_4E75)
      var tally = (histories: 0, linearizable: 0, disagreements: [Int]())
      for index in 0..<300 {
        let history = randomHistory(
          "kv", generator, index: index, using: &random, type: KeyValueModel.self,
          operations: 12...20, processes: 3...5)
        let whole = try HistoryChecker(partitions: false, explains: false).check(history).verdict
        let split = try HistoryChecker(explains: false).check(history).verdict
        tally.histories += 1
        if split == .linearizable { tally.linearizable += 1 }
        if whole != split { tally.disagreements.append(index) }
      }
      #expect(tally.disagreements.isEmpty, "\(tally)")
      let tenth = tally.histories / 10
      #expect(
        tally.linearizable >= tenth && tally.histories - tally.linearizable >= tenth, "\(tally)")
    }

    // Over 64 keys, keys share the 64 groups reasons are made of (key i in group i % 64):
    // random histories over 130 keys must still agree.
    @Test func wholeAndSplitAgreeOverMoreKeysThanGroups() throws {
      let keys = (0..<130).map { Value.string("k\($0)") }
      let generator: RandomOperations.Draw = { r in
        let key = keys[Int(r.next() % 50)]
        return RandomOperations.pick(
          &r,
          [
            { _ in ("get", [key]) }, { r in ("put", [key, RandomOperations.text(&r)]) },
            { r in ("append", [key, RandomOperations.text(&r)]) },
          ])
      }
      var random = SplitMix64(seed: 0x130_4E75)
      var tally = (histories: 0, linearizable: 0, manyKeys: 0, disagreements: [Int]())
      for index in 0..<200 {
        var history = randomHistory(
          "kv", generator, index: index, using: &random, type: KeyValueModel.self,
          operations: 12...20, processes: 3...5)
        // Pad with reads of 80 keys the random operations never touch, after everything
        // else: they fit, and with them the history has more keys than groups.
        let end = history.operations.map { $0.return ?? $0.call }.max() ?? 0
        for extra in 0..<80 {
          history.operations.append(
            RecordedHistory.Operation(
              process: .int(100 + extra), name: "get", arguments: [keys[50 + extra]],
              call: end + 1 + Int64(extra), return: end + 1 + Int64(extra),
              result: "", status: .ok))
        }
        let whole = try HistoryChecker(partitions: false, explains: false).check(history).verdict
        let split = try HistoryChecker(explains: false).check(history).verdict
        tally.histories += 1
        if split == .linearizable { tally.linearizable += 1 }
        if Set(history.operations.compactMap { $0.arguments.first }).count > 64 {
          tally.manyKeys += 1
        }
        if whole != split { tally.disagreements.append(index) }
      }
      #expect(tally.disagreements.isEmpty, "\(tally)")
      #expect(tally.manyKeys == tally.histories, "\(tally)")
      let tenth = tally.histories / 10
      #expect(
        tally.linearizable >= tenth && tally.histories - tally.linearizable >= tenth, "\(tally)")
    }
  }
}

/// A history as a failure message shows it: each operation with its call and return times.
private func describe(_ history: RecordedHistory) -> String {
  history.operations.enumerated().map {
    "  \($0.offset): \($0.element) call \($0.element.call) return \($0.element.return.map(String.init) ?? "-")"
  }.joined(separator: "\n")
}

// MARK: - Brute force

/// Whether some order of the operations explains every `ok` result, respecting real time; `fail` ones never took effect, `info` ones may have.
private func bruteForce(_ history: RecordedHistory, _ type: any HistoryModel.Type) -> Bool {
  func open<M: HistoryModel>(_: M.Type) -> Bool {
    let initial = history.initial.map { try! M(state: $0) } ?? M()
    let operations = history.operations.filter { $0.status != .fail }
    let steps = operations.map { try! M.step($0.name, $0.arguments) }
    var placed = Array(repeating: false, count: operations.count)
    func precedes(_ a: Int, _ b: Int) -> Bool {
      guard let end = operations[a].return else { return false }
      return end < operations[b].call
    }
    func extend(_ state: M) -> Bool {
      if operations.indices.allSatisfy({ placed[$0] || operations[$0].status == .info }) {
        return true
      }
      for candidate in operations.indices where !placed[candidate] {
        guard operations.indices.allSatisfy({ placed[$0] || !precedes($0, candidate) }) else {
          continue
        }
        var next = state
        let result = next.apply(steps[candidate])
        guard operations[candidate].status == .info || result == operations[candidate].result
        else { continue }
        placed[candidate] = true
        if extend(next) { return true }
        placed[candidate] = false
      }
      return false
    }
    return extend(initial)
  }
  return open(type)
}

/// The proof without search of the history (as the checker asks it once a quick search fails), split by key or whole, and whether the search without proofs fails it.
private func proofAndSearch(
  _ history: RecordedHistory, _ type: any HistoryModel.Type, split: Bool
) throws -> (proof: ProofWithoutSearch?, searchFails: Bool) {
  func open<M: HistoryModel>(_: M.Type) throws -> (ProofWithoutSearch?, Bool) {
    let typed = try TypedHistory<M>(history)
    let parts = Partition.parts(of: typed, split: split)
    let proof = parts.lazy.compactMap { part in proofWithoutSearch(part, of: typed) }.first
    let fails = parts.contains { part in
      let outcome = PartOutcome.search(part, of: typed, budget: .unlimited, proves: false)
      if case .notLinearizable = outcome.result { return true }
      return false
    }
    return (proof, fails)
  }
  return try open(type)
}

/// Whether some read of `history` (of a register, a compare-and-set register or a key-value store) is stale by the definition, checked naively.
///
/// A completed read, `get` or successful `cas` O saw v; some completed store W of its
/// object returned before O was called; every operation P ≠ O of that object that may
/// have stored v and was called before O returned, returned before W was called.
private func hasStaleReadByDefinition(_ history: RecordedHistory) -> Bool {
  let operations = history.operations.filter { $0.status != .fail }
  func object(_ operation: RecordedHistory.Operation) -> Value? {
    history.model == "kv" ? operation.arguments.first : nil
  }
  func observed(_ operation: RecordedHistory.Operation) -> Value? {
    guard operation.status == .ok else { return nil }
    switch operation.name {
    case "read": return operation.result
    // A get that returned no string fits no state: the search, not the proof, rejects it.
    case "get": return operation.result.stringValue == nil ? Value?.none : operation.result
    // `Value` takes a nil literal as `.null`: no observation is spelled `Value?.none`.
    case "cas": return operation.result == true ? operation.arguments[0] : Value?.none
    default: return nil
    }
  }
  func certainlyStores(_ operation: RecordedHistory.Operation) -> Bool {
    guard operation.status == .ok else { return false }
    switch operation.name {
    case "write", "put": return true
    case "cas": return operation.result == true
    case "append": return operation.arguments[1] != ""
    default: return false
    }
  }
  func mayStore(_ operation: RecordedHistory.Operation, _ value: Value) -> Bool {
    switch operation.name {
    case "write": return operation.arguments[0] == value
    case "put": return operation.arguments[1] == value
    case "cas":
      return (operation.status == .info || operation.result == true)
        && operation.arguments[1] == value
    case "append":
      guard let suffix = operation.arguments[1].stringValue, !suffix.isEmpty,
        let whole = value.stringValue
      else { return false }
      return Array(whole.utf8).reversed().starts(with: Array(suffix.utf8).reversed())
    default: return false
    }
  }
  return operations.indices.contains { reader in
    let read = operations[reader]
    guard let value = observed(read) else { return false }
    let producers = operations.indices.filter { other in
      other != reader && object(operations[other]) == object(read)
        && operations[other].call <= read.return! && mayStore(operations[other], value)
    }
    // The initial state, when it held the value, is a producer any such store follows.
    return operations.contains { store in
      guard certainlyStores(store), object(store) == object(read), store.return! < read.call
      else { return false }
      return producers.allSatisfy { (operations[$0].return ?? .max) < store.call }
    }
  }
}

// MARK: - Random histories

/// Small random operations of each built-in model, drawn from narrow domains so that they collide.
private enum RandomOperations {
  typealias Draw = @Sendable (inout SplitMix64) -> (String, [Value])

  static func small(_ random: inout SplitMix64) -> Value { .int(Int(random.next() % 3)) }
  static func key(_ random: inout SplitMix64) -> Value { random.next() % 2 == 0 ? "a" : "b" }
  static func threeKeys(_ random: inout SplitMix64) -> Value {
    ["a", "b", "c"][Int(random.next() % 3)]
  }
  static func text(_ random: inout SplitMix64) -> Value { ["x", "y", "z"][Int(random.next() % 3)] }
  static func pick(_ random: inout SplitMix64, _ choices: [Draw]) -> (String, [Value]) {
    choices[Int(random.next() % UInt64(choices.count))](&random)
  }

  static let forModel: [String: Draw] = [
    "register": { r in pick(&r, [{ _ in ("read", []) }, { r in ("write", [small(&r)]) }]) },
    "cas-register": { r in
      pick(
        &r,
        [
          { _ in ("read", []) }, { r in ("write", [small(&r)]) },
          { r in ("cas", [small(&r), small(&r)]) },
        ])
    },
    "counter": { r in
      pick(
        &r,
        [
          { _ in ("get", []) }, { _ in ("increment", []) }, { r in ("add", [small(&r)]) },
          { r in ("set", [small(&r)]) },
        ])
    },
    "array": { r in
      pick(
        &r,
        [
          { _ in ("count", []) }, { r in ("get", [small(&r)]) }, { _ in ("first", []) },
          { _ in ("last", []) }, { r in ("append", [small(&r)]) },
          { r in ("insert", [small(&r), small(&r)]) }, { r in ("remove", [small(&r)]) },
          { _ in ("removeLast", []) }, { r in ("replace", [small(&r), small(&r)]) },
          { r in ("indexOf", [small(&r)]) }, { r in ("contains", [small(&r)]) },
          { _ in ("snapshot", []) },
        ])
    },
    "dictionary": { r in
      pick(
        &r,
        [
          { r in ("get", [key(&r)]) }, { r in ("set", [key(&r), small(&r)]) },
          { r in ("remove", [key(&r)]) }, { r in ("get", [key(&r)]) },
          { r in ("set", [key(&r), small(&r)]) },
          // Rare, so that most histories can be split by key and some cannot.
          { r in r.next() % 4 == 0 ? ("count", []) : ("get", [key(&r)]) },
        ])
    },
    "set": { r in
      pick(
        &r,
        [
          { r in ("insert", [small(&r)]) }, { r in ("remove", [small(&r)]) },
          { r in ("contains", [small(&r)]) }, { _ in ("count", []) },
        ])
    },
    "queue": { r in
      pick(
        &r, [{ r in ("enqueue", [small(&r)]) }, { _ in ("dequeue", []) }, { _ in ("count", []) }])
    },
    "stack": { r in
      pick(&r, [{ r in ("push", [small(&r)]) }, { _ in ("pop", []) }, { _ in ("count", []) }])
    },
    "kv": { r in
      pick(
        &r,
        [
          { r in ("get", [key(&r)]) }, { r in ("put", [key(&r), text(&r)]) },
          { r in ("append", [key(&r), text(&r)]) },
        ])
    },
  ]

  /// Operations of the keyed models over three keys, none spanning keys: the whole search by key meets several keys at every node.
  static let overThreeKeys: [String: Draw] = [
    "kv": { r in
      pick(
        &r,
        [
          { r in ("get", [threeKeys(&r)]) }, { r in ("put", [threeKeys(&r), text(&r)]) },
          { r in ("append", [threeKeys(&r), text(&r)]) },
        ])
    },
    "dictionary": { r in
      pick(
        &r,
        [
          { r in ("get", [threeKeys(&r)]) }, { r in ("set", [threeKeys(&r), small(&r)]) },
          { r in ("remove", [threeKeys(&r)]) },
        ])
    },
  ]
}

/// A random history over 1–3 processes with 1–7 operations (by default) and timestamps in 0...20.
///
/// Each operation gets a linearization point, increasing within its process, and an
/// interval around it. Results come from running the operations in order of their
/// points, so the history is linearizable unless one result is then replaced (every
/// other history). A process's last operation may become `info` (it took effect or not)
/// and any operation may become `fail` (it did not take effect; its result is garbage).
private func randomHistory(
  _ model: String, _ draw: RandomOperations.Draw, index: Int, using random: inout SplitMix64,
  type: any HistoryModel.Type, operations: ClosedRange<Int> = 1...7,
  processes processCount: ClosedRange<Int> = 1...3
) -> RecordedHistory {
  func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(random.next() % UInt64(range.count))
  }
  let count = int(operations)
  let processes = int(processCount)
  let process = (0..<count).map { _ in int(0...(processes - 1)) }
  let calls = (0..<count).map { _ in draw(&random) }
  var point = Array(repeating: 0, count: count)
  var callTime = Array(repeating: Int64(0), count: count)
  var returnTime: [Int64?] = Array(repeating: nil, count: count)
  var status = Array(repeating: History.Status.ok, count: count)
  for p in 0..<processes {
    let members = (0..<count).filter { process[$0] == p }
    guard let last = members.last else { continue }
    var slots = Array(0...20)
    for i in slots.indices.dropLast() { slots.swapAt(i, int(i...(slots.count - 1))) }
    let points = slots.prefix(members.count).sorted()
    var previousReturn = -1
    for (position, member) in members.enumerated() {
      let here = points[position]
      let nextPoint = position + 1 < members.count ? points[position + 1] : 21
      let spread = int(0...5)
      let call = int(max(previousReturn + 1, here - spread)...here)
      let end = int(here...min(nextPoint - 1, here + spread, 20))
      point[member] = here
      callTime[member] = Int64(call)
      returnTime[member] = Int64(end)
      previousReturn = end
      if int(0...9) == 0 { status[member] = .fail }
    }
    if int(0...4) == 0 {
      status[last] = .info
      returnTime[last] = nil
    }
  }
  let order = (0..<count).sorted { (point[$0], $0) < (point[$1], $1) }
  var results = Array(repeating: Value.null, count: count)
  func run<M: HistoryModel>(_: M.Type) {
    var state = M()
    for index in order {
      if status[index] == .fail { continue }
      if status[index] == .info && random.next() % 2 == 0 { continue }
      results[index] = state.apply(try! M.step(calls[index].0, calls[index].1))
    }
  }
  run(type)
  if index % 2 == 1 {
    let victims = (0..<count).filter { status[$0] == .ok }
    if !victims.isEmpty {
      let victim = victims[int(0...(victims.count - 1))]
      let replacements: [Value] = [.null, 0, 1, 2, true, false, "", "x", "xy", [], [1]]
      results[victim] = replacements[int(0...(replacements.count - 1))]
    }
  }
  return RecordedHistory(
    model: model,
    operations: (0..<count).map {
      RecordedHistory.Operation(
        process: .int(process[$0]), name: calls[$0].0, arguments: calls[$0].1,
        call: callTime[$0], return: returnTime[$0], result: results[$0], status: status[$0])
    })
}
