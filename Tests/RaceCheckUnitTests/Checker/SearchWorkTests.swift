import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine
@testable import RaceCheckHistory

// The checker's cost measured in work, not seconds: a history that needs no backtracking
// is searched in steps and copies linear in its length, and explaining a violation
// spends at most what deciding it did, or the explainer's floor.

extension UnitTestSuite {
  @Suite struct SearchWorkTests {
    /// A generated illegal compare-and-set history of 100 operations, and its plain search's verdict (no proof without search).
    func illegalCASHistoryDecidedBySearch() throws -> (
      TypedHistory<CASRegisterModel>, Partition<CASRegisterModel>, PartOutcome<CASRegisterModel>
    ) {
      let history = try GeneratedHistory(
        family: .casRegister(clients: 10, planted: .impossibleRead), operations: 100, seed: 3
      ).recorded()
      let typed = try TypedHistory<CASRegisterModel>(history)
      let part = try #require(Partition.parts(of: typed, split: true).first)
      return (typed, part, PartOutcome.search(part, of: typed, budget: .unlimited, proves: false))
    }

    // Each operation returns as the next is called: they overlap (calls come first at equal
    // times), so the search runs, but never needs to backtrack.
    @Test(arguments: ["register", "counter", "kv"])
    func touchingHistoriesCostLinearSearchWork(model: String) throws {
      var perOperation: [Double] = []
      for count in [1000, 4000, 16000] {
        let work = try searchWork(sequential(model, count: count, touching: true))
        // A step per node entered and one per candidate tried: a few per operation.
        #expect(work.steps <= 4 * count, "\(model) \(count): \(work)")
        // Nothing is undone, so the longest prefix is never copied off the stack.
        #expect(work.copied == 0, "\(model) \(count): \(work)")
        perOperation.append(Double(work.steps) / Double(count))
      }
      // Linear: the steps per operation do not grow with the length.
      #expect(perOperation.last! <= perOperation.first! * 1.1, "\(perOperation)")
    }

    @Test(arguments: ["register", "counter", "kv"])
    func operationsThatFollowOneAnotherAreReplayedOnce(model: String) throws {
      for count in [1000, 16000] {
        let history = sequential(model, count: count, touching: false)
        let work = try searchWork(history)
        // One step an operation: their only order, replayed, with no search around it.
        #expect(work.steps == count, "\(model) \(count): \(work)")
        #expect(work.copied == 0)
      }
    }

    @Test func aReplayedViolationKeepsThePrefixBeforeIt() throws {
      var history = sequential("register", count: 30, touching: false)
      // Operation 5 reads a value nothing wrote.
      history.operations[5].result = 99
      let outcome = try searchOfOnlyPart(history, as: RegisterModel.self)
      guard case .notLinearizable(let prefix, _) = outcome.result else {
        Issue.record("expected a violation, got \(outcome.result)")
        return
      }
      #expect(prefix == Array(0..<5))
      #expect(outcome.work.steps == 6)
    }

    @Test func deadEndTestsLookFarOnlyWhileTheSearchStruggles() {
      #expect(DeadEndReach.reads(placements: 0, backtracks: 0) == DeadEndReach.quick)
      #expect(DeadEndReach.reads(placements: 500, backtracks: 0) == DeadEndReach.quick)
      // A legal history that backtracks now and then: one undone placement in five.
      #expect(DeadEndReach.reads(placements: 500, backtracks: 100) == DeadEndReach.quick)
      // A hard key of c50-bad: nearly every placement undone.
      #expect(DeadEndReach.reads(placements: 500, backtracks: 450) == DeadEndReach.thorough)
      #expect(DeadEndReach.reads(placements: 1, backtracks: 1) == DeadEndReach.thorough)
    }

    @Test func aReplayStopsWhereItsStepBudgetDoes() throws {
      let history = sequential("kv", count: 300, touching: false)
      let outcome = try searchOfOnlyPart(
        history, as: KeyValueModel.self, budget: WingGongSearch.Budget(steps: 50))
      guard case .unknown(let prefix, _) = outcome.result else {
        Issue.record("expected unknown, got \(outcome.result)")
        return
      }
      #expect(prefix == Array(0..<50))
      #expect(outcome.work.steps == 50)
    }

    @Test func longestPrefixCopiesOnlyWhatABacktrackPops() {
      var longest = LongestPrefix(state: 0)
      var stack: [Int32] = []
      for operation in 0..<100 as Range<Int32> {
        stack.append(operation)
        if stack.count > longest.count { longest.extend(to: stack.count, state: operation) }
      }
      // The prefix is the stack itself: nothing is copied while nothing is undone.
      #expect(longest.copied == 0)
      #expect(longest.prefix(sharing: stack) == Array(0..<100))
      // Popping ten copies those ten, once; the prefix keeps them.
      for _ in 0..<10 {
        longest.keep(stack, poppingTo: stack.count - 1)
        stack.removeLast()
      }
      #expect(longest.copied == 10)
      #expect(longest.prefix(sharing: stack) == Array(0..<100))
      // Eleven others make a longer prefix, read from the stack again: no copy.
      for operation in 200..<211 as Range<Int32> {
        stack.append(operation)
        if stack.count > longest.count { longest.extend(to: stack.count, state: operation) }
      }
      #expect(longest.copied == 10)
      #expect(longest.prefix(sharing: stack) == stack.map { Int($0) })
      #expect(longest.state == 210)
    }

    @Test func aStepBudgetStopsTheSearchUnknown() throws {
      let history = try GeneratedHistory(
        family: .casRegister(clients: 10, planted: nil), operations: 300, seed: 7
      ).recorded()
      let typed = try TypedHistory<CASRegisterModel>(history)
      let part = try #require(Partition.parts(of: typed, split: true).first)
      let outcome = PartOutcome.search(
        part, of: typed, budget: WingGongSearch.Budget(steps: 50), proves: false)
      guard case .unknown = outcome.result else {
        Issue.record("expected unknown, got \(outcome.result)")
        return
      }
      #expect(outcome.work.steps <= 50)
    }

    // A search that takes many steps to fail: the explanation may spend as many again.
    @Test func explainingCostsAtMostWhatDecidingDid() throws {
      let (typed, part, decided) = try illegalCASHistoryDecidedBySearch()
      guard case .notLinearizable = decided.result else {
        Issue.record("expected a violation, got \(decided.result)")
        return
      }
      for floor in [0, 1000] {
        var explainer = Explainer(history: typed, part: part, deadline: .distantFuture)
        explainer.decidingSteps = decided.work.steps / 4 + floor
        let (violation, steps) = explainer.violation(decided)
        #expect(steps <= max(explainer.decidingSteps, Explainer<CASRegisterModel>.stepFloor))
        #expect(!violation.window.isEmpty)
      }
    }

    @Test func aSmallBudgetGivesACoarserWindowAndSaysSo() throws {
      let (typed, part, decided) = try illegalCASHistoryDecidedBySearch()
      let full = Explainer(history: typed, part: part, deadline: .distantFuture).violation(decided)
      let starved = Explainer(history: typed, part: part, deadline: .distantFuture)
        .smallestWindow(budget: 10)
      #expect(full.violation.windowExtent == .smallest)
      #expect(starved.extent == .budgetExhausted)
      #expect(starved.steps <= 10)
      #expect(starved.operations.count > full.violation.window.count)
    }

    @Test func anImpossibleReadIsCitedAndItsWindowEndsThere() throws {
      let history = try GeneratedHistory(
        family: .casRegister(clients: 10, planted: .impossibleRead), operations: 2000, seed: 15
      ).recorded()
      let verdict = try HistoryChecker().check(history)
      #expect(verdict.verdict == .notLinearizable)
      let violation = try #require(verdict.violation)
      guard case .impossibleRead(let operation, let value) = violation.proof else {
        Issue.record("no proof: \(violation)")
        return
      }
      #expect(value == 5)
      #expect(history.operations[operation].name == "read")
      #expect(history.operations[operation].result == 5)
      #expect(violation.windowExtent == .upToProof)
      #expect(violation.window.contains(operation))
    }
  }
}

/// The plain search (no proof) of the first part of `history`, decoded with `Model`.
private func searchOfOnlyPart<Model: HistoryModel>(
  _ history: RecordedHistory, as _: Model.Type, budget: WingGongSearch.Budget = .unlimited
) throws -> PartOutcome<Model> {
  let typed = try TypedHistory<Model>(history)
  let part = try #require(Partition.parts(of: typed, split: true).first)
  return PartOutcome.search(part, of: typed, budget: budget, proves: false)
}

/// What searching every part of `history` cost, without proofs.
private func searchWork(_ history: RecordedHistory) throws -> WingGongSearch.Work {
  func open<M: HistoryModel>(_: M.Type) throws -> WingGongSearch.Work {
    let typed = try TypedHistory<M>(history)
    var total = WingGongSearch.Work()
    for part in Partition.parts(of: typed, split: true) {
      let outcome = PartOutcome.search(part, of: typed, budget: .unlimited, proves: false)
      guard case .linearizable = outcome.result else {
        Issue.record("a sequential history must be linearizable: \(outcome.result)")
        return total
      }
      total.steps += outcome.work.steps
      total.copied += outcome.work.copied
    }
    return total
  }
  guard let type = BuiltInModels.model(named: history.model) else {
    Issue.record("no model \(history.model)")
    return WingGongSearch.Work()
  }
  return try open(type)
}

/// `count` operations of one process in turn: writes and reads, or increments and reads, or kv puts, appends and gets.
///
/// When `touching`, each returns at the time the next is called, so that neighbours overlap.
private func sequential(_ model: String, count: Int, touching: Bool) -> RecordedHistory {
  var operations: [RecordedHistory.Operation] = []
  var register: Value = .null
  var counter = 0
  var text = ""
  for index in 0..<count {
    let name: String
    var arguments: [Value] = []
    var result: Value = .null
    switch (model, index % 3) {
    case ("register", 0):
      name = "write"
      arguments = [.int(index % 5)]
      register = .int(index % 5)
    case ("register", _):
      name = "read"
      result = register
    case ("counter", 0), ("counter", 1):
      name = "increment"
      counter += 1
    case ("counter", _):
      name = "get"
      result = .int(counter)
    case (_, 0):
      name = "put"
      arguments = ["k", .string("v\(index)")]
      text = "v\(index)"
    case (_, 1):
      name = "append"
      arguments = ["k", "x"]
      text += "x"
    default:
      name = "get"
      arguments = ["k"]
      result = .string(text)
    }
    operations.append(
      RecordedHistory.Operation(
        process: 0, name: name, arguments: arguments, call: Int64(2 * index),
        return: Int64(2 * index + (touching ? 2 : 1)), result: result, status: .ok))
  }
  return RecordedHistory(model: model, operations: operations)
}

extension GeneratedHistory {
  /// The history as `check` reads its file.
  func recorded() throws -> RecordedHistory {
    let format: RecordedHistory.Format = path.hasSuffix(".log") ? .jepsenLog : .jepsen
    return try RecordedHistory(bytes: Array(text().utf8), format: format)
  }
}
