import RaceCheck
import Testing

// Differential tests of the Wing & Gong checker: thousands of small random histories
// (linearizable by construction, perturbed, fully random, with unknown-outcome "info"
// operations) are decided both by `LinearizabilityChecker` and by a brute-force search
// over every real-time-consistent order, and the verdicts must agree.

extension UnitTestSuite {
  @Suite struct LinearizabilityCheckerTests {
    // MARK: Differential tests against brute force

    @Test func agreesWithBruteForceOnRandomRegisterHistories() {
      checkAgainstBruteForce(Register.self)
    }

    @Test func agreesWithBruteForceOnRandomStackHistories() {
      checkAgainstBruteForce(Stack.self)
    }

    @Test func agreesWithBruteForceOnRandomQueueHistories() {
      checkAgainstBruteForce(Queue.self)
    }

    // MARK: Hand-written edge cases

    @Test func emptyHistoryIsLinearizable() {
      let history = History<Register>(entries: [])
      guard case .linearizable(let order) = history.check() else {
        Issue.record("the empty history must be linearizable")
        return
      }
      #expect(order.isEmpty)
      #expect(bruteForceIsLinearizable(history))
    }

    @Test func readOfValueNeverWrittenIsNotLinearizable() {
      let lone = History<Register>(entries: [op(.read, 7, 0, 1)])
      guard case .notLinearizable(let prefix, let state) = lone.check() else {
        Issue.record("a read of 7 from a register holding 0 must not be linearizable")
        return
      }
      #expect(prefix.isEmpty)
      #expect(state == 0)
      #expect(!bruteForceIsLinearizable(lone))

      let afterWrite = History<Register>(entries: [op(.write(1), 0, 0, 1), op(.read, 2, 2, 3)])
      guard case .notLinearizable(let prefix, let state) = afterWrite.check() else {
        Issue.record("a read of 2 after write(1) must not be linearizable")
        return
      }
      #expect(prefix == [0])
      #expect(state == 1)
      #expect(!bruteForceIsLinearizable(afterWrite))
    }

    @Test func overlappingWritesMayTakeEffectInEitherOrder() {
      let writes = [op(.write(1), 0, 0, 10), op(.write(2), 0, 0, 10)]
      // Reads during the writes may see them in either order.
      for (first, second) in [(1, 2), (2, 1)] {
        let history = History<Register>(
          entries: writes + [op(.read, first, 2, 3), op(.read, second, 4, 5)])
        expectVerdict(history, linearizable: true)
      }
      // Once both writes have returned, a single read may see either one ...
      for value in [1, 2] {
        expectVerdict(
          History<Register>(entries: writes + [op(.read, value, 11, 12)]), linearizable: true)
      }
      // ... but two later reads cannot see the value change.
      for (first, second) in [(1, 2), (2, 1)] {
        let history = History<Register>(
          entries: writes + [op(.read, first, 11, 12), op(.read, second, 13, 14)])
        expectVerdict(history, linearizable: false)
      }
      // Each write takes effect once, so reads cannot see 1, then 2, then 1 again.
      let flipFlop = History<Register>(
        entries: writes + [op(.read, 1, 2, 3), op(.read, 2, 4, 5), op(.read, 1, 6, 7)]
      )
      expectVerdict(flipFlop, linearizable: false)
    }

    @Test func equalTimestampsCountAsOverlap() {
      // A read that returns at the instant the write is called may follow the write ...
      expectVerdict(
        History<Register>(entries: [op(.read, 1, 3, 5), op(.write(1), 0, 5, 8)]),
        linearizable: true
      )
      // ... but not if it returned strictly earlier.
      expectVerdict(
        History<Register>(entries: [op(.read, 1, 3, 4), op(.write(1), 0, 5, 8)]),
        linearizable: false
      )
      // A read called at the instant the write returns may precede it ...
      expectVerdict(
        History<Register>(entries: [op(.write(1), 0, 0, 5), op(.read, 0, 5, 6)]),
        linearizable: true
      )
      // ... but not if it was called strictly later.
      expectVerdict(
        History<Register>(entries: [op(.write(1), 0, 0, 5), op(.read, 0, 6, 7)]),
        linearizable: false
      )
      // Zero-length intervals at the same instant overlap too.
      expectVerdict(
        History<Register>(entries: [op(.write(1), 0, 4, 4), op(.read, 0, 4, 4)]),
        linearizable: true
      )
    }

    @Test func infoWriteMayNeverTakeEffect() {
      let infoWrite = op(.write(1), 0, 0, nil)
      // Never took effect.
      expectVerdict(
        History<Register>(entries: [infoWrite, op(.read, 0, 5, 6)]), linearizable: true)
      // Took effect before the read.
      expectVerdict(
        History<Register>(entries: [infoWrite, op(.read, 1, 5, 6)]), linearizable: true)
      // Took effect between two reads.
      expectVerdict(
        History<Register>(entries: [infoWrite, op(.read, 0, 5, 6), op(.read, 1, 7, 8)]),
        linearizable: true
      )
      // Once it took effect, it cannot be undone.
      expectVerdict(
        History<Register>(entries: [infoWrite, op(.read, 1, 5, 6), op(.read, 0, 7, 8)]),
        linearizable: false
      )
      // It cannot take effect before it was called.
      expectVerdict(
        History<Register>(entries: [op(.read, 1, 0, 1), op(.write(1), 0, 2, nil)]),
        linearizable: false
      )
    }

    @Test func infoPopMayOrMayNotRemoveAnElement() {
      let push = Entry<Stack>(
        process: 0, operation: .push(1), result: 0, callTime: 0, returnTime: 1)
      let infoPop = Entry<Stack>(
        process: 0, operation: .pop, result: 0, callTime: 2, returnTime: nil)
      let emptyPop = Entry<Stack>(
        process: 1, operation: .pop, result: -1, callTime: 5, returnTime: 6)
      let fullPop = Entry<Stack>(process: 1, operation: .pop, result: 1, callTime: 5, returnTime: 6)
      expectVerdict(History<Stack>(entries: [push, infoPop, emptyPop]), linearizable: true)
      expectVerdict(History<Stack>(entries: [push, infoPop, fullPop]), linearizable: true)
      expectVerdict(
        History<Stack>(entries: [push, infoPop, fullPop, emptyPop.at(7, 8)]), linearizable: true)
      expectVerdict(
        History<Stack>(entries: [push, infoPop, fullPop, fullPop.at(7, 8)]), linearizable: false)
    }
  }
}

// MARK: - Differential driver

private let seeds: [UInt64] = [1, 2, 3, 42, 1234, 0x5EED, 99_991, 0xDEAD_BEEF]
private let historiesPerSeed = 500  // 8 seeds × 500 = 4,000 histories per model

/// The generator settings cycled through, so every seed exercises every kind of history.
private let historyKinds: [GeneratorSettings] = [
  GeneratorSettings(name: "sequential run", randomResults: false, perturb: false, infoChance: 20),
  GeneratorSettings(
    name: "sequential run, one result perturbed", randomResults: false, perturb: true,
    infoChance: 20),
  GeneratorSettings(name: "random results", randomResults: true, perturb: false, infoChance: 20),
  GeneratorSettings(
    name: "sequential run, info in every process", randomResults: false, perturb: true,
    infoChance: 100),
]

private func checkAgainstBruteForce<M: Model>(
  _ model: M.Type,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var tally = Tally()
  for seed in seeds {
    var random = TestRandom(seed: seed ^ M.seedSalt)
    for index in 0..<historiesPerSeed {
      let settings = historyKinds[index % historyKinds.count]
      let (history, linearizableByConstruction) = generateHistory(M.self, settings, using: &random)
      let context = "\(M.self) seed \(seed), history \(index) (\(settings.name))"
      let linearizable = examine(
        history,
        linearizableByConstruction: linearizableByConstruction,
        context: context,
        into: &tally
      )
      tally.verdictsByKind[index % historyKinds.count][linearizable ? 0 : 1] += 1
    }
  }

  print(
    "\(M.self): \(tally.histories) histories, \(tally.linearizable) linearizable, "
      + "\(tally.notLinearizable) not; \(tally.withInfo) with info operations, "
      + "\(tally.withTouchingIntervals) with touching intervals; by kind (linearizable/not): "
      + zip(historyKinds, tally.verdictsByKind).map { "\($0.name) \($1[0])/\($1[1])" }.joined(
        separator: ", ")
  )
  #expect(
    tally.failures == 0,
    "\(tally.failures) failures; the first:\n\(tally.firstFailure ?? "")",
    sourceLocation: sourceLocation
  )
  // Guard against a degenerate generator: both verdicts, info operations and equal timestamps must be common.
  let tenth = tally.histories / 10
  #expect(
    tally.linearizable >= tenth, "too few linearizable histories: \(tally)",
    sourceLocation: sourceLocation)
  #expect(
    tally.notLinearizable >= tenth,
    "too few non-linearizable histories: \(tally)",
    sourceLocation: sourceLocation
  )
  #expect(
    tally.withInfo >= tenth, "too few histories with info operations: \(tally)",
    sourceLocation: sourceLocation)
  #expect(
    tally.withTouchingIntervals >= tenth,
    "too few histories where a return and a call share a timestamp: \(tally)",
    sourceLocation: sourceLocation
  )
}

private struct Tally: CustomStringConvertible {
  var histories = 0
  var linearizable = 0
  var notLinearizable = 0
  var withInfo = 0
  var withTouchingIntervals = 0
  var failures = 0
  var firstFailure: String?
  /// Per entry of `historyKinds`: how many histories the checker found linearizable and not.
  var verdictsByKind = Array(repeating: [0, 0], count: historyKinds.count)

  mutating func fail(_ message: String) {
    failures += 1
    if firstFailure == nil { firstFailure = message }
  }

  var description: String {
    "\(histories) histories: \(linearizable) linearizable, \(notLinearizable) not, "
      + "\(withInfo) with info, \(withTouchingIntervals) with touching intervals"
  }
}

/// Runs the checker and the brute force on one history, records any disagreement or invalid
/// answer, and returns the checker's verdict.
private func examine<M: Model>(
  _ history: History<M>,
  linearizableByConstruction: Bool,
  context: String,
  into tally: inout Tally
) -> Bool {
  tally.histories += 1
  if history.entries.contains(where: { $0.returnTime == nil }) { tally.withInfo += 1 }
  if history.hasTouchingIntervals { tally.withTouchingIntervals += 1 }

  let expected = bruteForceIsLinearizable(history)
  if linearizableByConstruction && !expected {
    tally.fail("brute force rejects a history linearizable by construction; \(context)\n\(history)")
  }
  switch history.check() {
  case .linearizable(let order):
    tally.linearizable += 1
    if !expected {
      tally.fail(
        "checker: linearizable with order \(order); brute force: not linearizable; \(context)\n\(history)"
      )
    }
    if let problem = history.problem(withLinearization: order) {
      tally.fail("checker's order \(order) is invalid: \(problem); \(context)\n\(history)")
    }
    return true
  case .notLinearizable(let prefix, let state):
    tally.notLinearizable += 1
    if expected {
      tally.fail(
        "checker: not linearizable (longest prefix \(prefix)); brute force: linearizable; \(context)\n\(history)"
      )
    }
    if let problem = history.problem(withPrefix: prefix, endingIn: state) {
      tally.fail(
        "checker's longest prefix \(prefix) is invalid: \(problem); \(context)\n\(history)")
    }
    return false
  case .undecided:
    tally.fail("checker gave up with no deadline; \(context)\n\(history)")
    return expected
  }
}

/// Asserts the checker's verdict, that the brute force agrees, and that a returned order is valid.
private func expectVerdict<M: Model>(
  _ history: History<M>,
  linearizable: Bool,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let outcome = history.check()
  switch outcome {
  case .linearizable(let order):
    #expect(
      linearizable, "checker accepted with order \(order):\n\(history)",
      sourceLocation: sourceLocation)
    let problem = history.problem(withLinearization: order)
    #expect(
      problem == nil, "invalid order \(order): \(problem ?? "")\n\(history)",
      sourceLocation: sourceLocation)
  case .notLinearizable(let prefix, let state):
    #expect(
      !linearizable, "checker rejected (longest prefix \(prefix)):\n\(history)",
      sourceLocation: sourceLocation)
    let problem = history.problem(withPrefix: prefix, endingIn: state)
    #expect(
      problem == nil, "invalid prefix \(prefix): \(problem ?? "")\n\(history)",
      sourceLocation: sourceLocation)
  case .undecided:
    Issue.record("checker gave up with no deadline:\n\(history)", sourceLocation: sourceLocation)
  }
  #expect(
    bruteForceIsLinearizable(history) == linearizable,
    "brute force disagrees with the expectation:\n\(history)",
    sourceLocation: sourceLocation
  )
}

/// A register entry for the hand-written cases; `returnTime == nil` makes it an info operation.
private func op(
  _ operation: Register.Operation, _ result: Int, _ callTime: Int64, _ returnTime: Int64?
)
  -> Entry<Register>
{
  Entry(
    process: 0, operation: operation, result: result, callTime: callTime, returnTime: returnTime)
}

// MARK: - Brute force

/// Decides linearizability by trying every order of the operations that respects real time.
///
/// Info operations may also be left out. Prefixes whose last step fails are
/// abandoned, which skips no order that could succeed.
private func bruteForceIsLinearizable<M: Model>(_ history: History<M>) -> Bool {
  var placed = Array(repeating: false, count: history.entries.count)
  return bruteForceExtend(history, from: M.initial, placed: &placed)
}

private func bruteForceExtend<M: Model>(
  _ history: History<M>, from state: M.State, placed: inout [Bool]
) -> Bool {
  let indices = history.entries.indices
  // Every operation with a known outcome is placed; the remaining info operations never took effect.
  if indices.allSatisfy({ placed[$0] || history.entries[$0].returnTime == nil }) { return true }
  for candidate in indices where !placed[candidate] {
    // Everything that returned before the candidate was called must already be placed.
    guard indices.allSatisfy({ placed[$0] || !history.precedes($0, candidate) }) else { continue }
    var next = state
    guard history.step(&next, candidate) else { continue }
    placed[candidate] = true
    if bruteForceExtend(history, from: next, placed: &placed) { return true }
    placed[candidate] = false
  }
  return false
}

// MARK: - Histories

private struct Entry<M: Model> {
  var process: Int
  var operation: M.Operation
  /// What the operation returned; ignored for info operations.
  var result: Int
  var callTime: Int64
  /// `nil`: the outcome is unknown (an info operation).
  var returnTime: Int64?

  func at(_ callTime: Int64, _ returnTime: Int64?) -> Entry {
    var copy = self
    copy.callTime = callTime
    copy.returnTime = returnTime
    return copy
  }
}

private struct History<M: Model>: CustomStringConvertible {
  var entries: [Entry<M>]

  var intervals: [LinearizabilityChecker<M.State>.Interval] {
    entries.map {
      LinearizabilityChecker<M.State>.Interval(callTime: $0.callTime, returnTime: $0.returnTime)
    }
  }

  /// Applies operation `index`; succeeds when the model's result matches the recorded one (always, for info operations).
  func step(_ state: inout M.State, _ index: Int) -> Bool {
    let entry = entries[index]
    let actual = M.apply(entry.operation, to: &state)
    return entry.returnTime == nil || actual == entry.result
  }

  /// Real-time order: `first` returned strictly before `second` was called.
  func precedes(_ first: Int, _ second: Int) -> Bool {
    guard let end = entries[first].returnTime else { return false }
    return end < entries[second].callTime
  }

  /// Whether some operation returns at the same instant another is called.
  var hasTouchingIntervals: Bool {
    entries.contains { first in
      entries.contains { second in first.returnTime == second.callTime }
    }
  }

  func check() -> LinearizabilityChecker<M.State>.Outcome {
    LinearizabilityChecker(intervals: intervals, initial: M.initial, step: { step(&$0, $1) })
      .check()
  }

  /// Why `order` is not a linearization, or nil if it is one: every completed operation once, each info one at most once.
  func problem(withLinearization order: [Int]) -> String? {
    let required = entries.indices.filter { entries[$0].returnTime != nil }
    guard Set(order).count == order.count, order.allSatisfy(entries.indices.contains),
      required.allSatisfy(order.contains)
    else {
      return "not an order of every completed operation"
    }
    var state = M.initial
    return problem(replaying: order, state: &state)
  }

  /// Why `prefix` is not a partial linearization ending in `expectedState`, or nil if it is one.
  func problem(withPrefix prefix: [Int], endingIn expectedState: M.State) -> String? {
    guard prefix.allSatisfy(entries.indices.contains), Set(prefix).count == prefix.count else {
      return "not a list of distinct operations"
    }
    guard prefix.count < entries.count else { return "places every operation" }
    var state = M.initial
    if let problem = problem(replaying: prefix, state: &state) { return problem }
    return state == expectedState ? nil : "replaying it ends in \(state), not \(expectedState)"
  }

  private func problem(replaying order: [Int], state: inout M.State) -> String? {
    for (position, index) in order.enumerated() {
      guard step(&state, index) else {
        return "op \(index) at position \(position) fails in state \(state)"
      }
      if let later = order[position...].first(where: { precedes($0, index) }) {
        return "op \(later) returned before op \(index) was called but comes after it"
      }
    }
    return nil
  }

  var description: String {
    entries.enumerated().map { index, entry in
      let result =
        entry.returnTime == nil
        ? " -> ?" : M.hasResult(entry.operation) ? " -> \(entry.result)" : ""
      let end = entry.returnTime.map(String.init) ?? "nil (info)"
      return
        "  op \(index) p\(entry.process): \(entry.operation)\(result)  call \(entry.callTime) return \(end)"
    }.joined(separator: "\n")
  }
}

// MARK: - Generator

private struct GeneratorSettings {
  var name: String
  /// Draw every result at random instead of taking it from the sequential run.
  var randomResults: Bool
  /// Replace one result of the sequential run with a random one (which may happen to be the same).
  var perturb: Bool
  /// Percent chance that a process's last operation becomes an info operation.
  var infoChance: Int
}

/// A random history over 1–3 processes with 1–7 operations and timestamps in 0...20.
///
/// Each operation gets a linearization point, distinct and increasing within its process;
/// its interval surrounds the point and stays clear of its neighbours in the process. The
/// results come from running the operations in order of their points (ties broken at
/// random), so unless results are randomized or perturbed the history is linearizable.
/// An info operation is the last of its process and takes effect at its point or never.
private func generateHistory<M: Model>(
  _: M.Type,
  _ settings: GeneratorSettings,
  using random: inout TestRandom
) -> (history: History<M>, linearizableByConstruction: Bool) {
  let count = random.int(1...7)
  let processCount = random.int(1...3)
  let process = (0..<count).map { _ in random.int(0...(processCount - 1)) }
  let operations = (0..<count).map { _ in M.randomOperation(using: &random) }
  var point = Array(repeating: 0, count: count)
  var callTime = Array(repeating: Int64(0), count: count)
  var returnTime: [Int64?] = Array(repeating: nil, count: count)
  var isInfo = Array(repeating: false, count: count)

  for p in 0..<processCount {
    let members = (0..<count).filter { process[$0] == p }
    guard let last = members.last else { continue }
    var slots = Array(0...20)
    random.shuffle(&slots)
    let points = slots.prefix(members.count).sorted()
    var previousReturn = -1
    for (position, member) in members.enumerated() {
      let here = points[position]
      let nextPoint = position + 1 < members.count ? points[position + 1] : 21
      let spread = random.int(0...5)
      let call = random.int(max(previousReturn + 1, here - spread)...here)
      let end = random.int(here...min(nextPoint - 1, here + spread, 20))
      point[member] = here
      callTime[member] = Int64(call)
      returnTime[member] = Int64(end)
      previousReturn = end
    }
    if random.percent(settings.infoChance) {
      isInfo[last] = true
      returnTime[last] = nil
    }
  }

  let tiebreak = (0..<count).map { _ in random.next() }
  let order = (0..<count).sorted { (point[$0], tiebreak[$0]) < (point[$1], tiebreak[$1]) }
  var results = Array(repeating: 0, count: count)
  var state = M.initial
  for index in order {
    if isInfo[index] && random.percent(50) { continue }  // never took effect
    results[index] = M.apply(operations[index], to: &state)
  }

  var linearizableByConstruction = true
  if settings.randomResults {
    results = operations.map { M.randomResult(of: $0, using: &random) }
    linearizableByConstruction = false
  }
  if settings.perturb {
    let candidates = (0..<count).filter { !isInfo[$0] && M.hasResult(operations[$0]) }
    if !candidates.isEmpty {
      let victim = candidates[random.int(0...(candidates.count - 1))]
      let replacement = M.randomResult(of: operations[victim], using: &random)
      if replacement != results[victim] {
        results[victim] = replacement
        linearizableByConstruction = false
      }
    }
  }

  let entries = (0..<count).map {
    Entry<M>(
      process: process[$0],
      operation: operations[$0],
      result: results[$0],
      callTime: callTime[$0],
      returnTime: returnTime[$0]
    )
  }
  return (History(entries: entries), linearizableByConstruction)
}

// MARK: - Models

private protocol Model {
  associatedtype State: Hashable
  associatedtype Operation: CustomStringConvertible

  /// Mixed into the seeds so that each model gets differently shaped histories.
  static var seedSalt: UInt64 { get }
  static var initial: State { get }
  /// Applies the operation and returns its result (0 for operations without one).
  static func apply(_ operation: Operation, to state: inout State) -> Int
  static func hasResult(_ operation: Operation) -> Bool
  static func randomOperation(using random: inout TestRandom) -> Operation
  /// A plausible result drawn at random (0 for operations without one).
  static func randomResult(of operation: Operation, using random: inout TestRandom) -> Int
}

/// An `Int` register starting at 0.
private enum Register: Model {
  static var seedSalt: UInt64 { 0x5245_4749_5354_4552 }

  enum Operation: CustomStringConvertible {
    case read
    case write(Int)

    var description: String {
      switch self {
      case .read: "read"
      case .write(let value): "write(\(value))"
      }
    }
  }

  static var initial: Int { 0 }

  static func apply(_ operation: Operation, to state: inout Int) -> Int {
    switch operation {
    case .read:
      return state
    case .write(let value):
      state = value
      return 0
    }
  }

  static func hasResult(_ operation: Operation) -> Bool {
    if case .read = operation { true } else { false }
  }

  static func randomOperation(using random: inout TestRandom) -> Operation {
    random.percent(50) ? .read : .write(random.int(1...3))
  }

  static func randomResult(of operation: Operation, using random: inout TestRandom) -> Int {
    hasResult(operation) ? random.int(0...3) : 0
  }
}

/// A LIFO stack; `pop` returns -1 when empty.
private enum Stack: Model {
  static var seedSalt: UInt64 { 0x5354_4143_4B00_0000 }

  enum Operation: CustomStringConvertible {
    case push(Int)
    case pop

    var description: String {
      switch self {
      case .push(let value): "push(\(value))"
      case .pop: "pop"
      }
    }
  }

  static var initial: [Int] { [] }

  static func apply(_ operation: Operation, to state: inout [Int]) -> Int {
    switch operation {
    case .push(let value):
      state.append(value)
      return 0
    case .pop:
      return state.popLast() ?? -1
    }
  }

  static func hasResult(_ operation: Operation) -> Bool {
    if case .pop = operation { true } else { false }
  }

  static func randomOperation(using random: inout TestRandom) -> Operation {
    random.percent(55) ? .push(random.int(1...3)) : .pop
  }

  static func randomResult(of operation: Operation, using random: inout TestRandom) -> Int {
    hasResult(operation) ? random.int(-1...3) : 0
  }
}

/// A FIFO queue; `dequeue` returns -1 when empty.
private enum Queue: Model {
  static var seedSalt: UInt64 { 0x5155_4555_4500_0000 }

  enum Operation: CustomStringConvertible {
    case enqueue(Int)
    case dequeue

    var description: String {
      switch self {
      case .enqueue(let value): "enqueue(\(value))"
      case .dequeue: "dequeue"
      }
    }
  }

  static var initial: [Int] { [] }

  static func apply(_ operation: Operation, to state: inout [Int]) -> Int {
    switch operation {
    case .enqueue(let value):
      state.append(value)
      return 0
    case .dequeue:
      return state.isEmpty ? -1 : state.removeFirst()
    }
  }

  static func hasResult(_ operation: Operation) -> Bool {
    if case .dequeue = operation { true } else { false }
  }

  static func randomOperation(using random: inout TestRandom) -> Operation {
    random.percent(55) ? .enqueue(random.int(1...3)) : .dequeue
  }

  static func randomResult(of operation: Operation, using random: inout TestRandom) -> Int {
    hasResult(operation) ? random.int(-1...3) : 0
  }
}

// MARK: - Random numbers

/// SplitMix64: a fixed sequence for each seed on every platform and Swift version
/// (the standard library's shuffle and range sampling are not promised to be stable).
private struct TestRandom {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A value in `range`; the modulo bias is negligible for ranges this small.
  mutating func int(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// True with probability `chance` percent.
  mutating func percent(_ chance: Int) -> Bool {
    int(0...99) < chance
  }

  /// Fisher–Yates.
  mutating func shuffle<T>(_ array: inout [T]) {
    for index in array.indices.dropLast() {
      array.swapAt(index, int(index...(array.count - 1)))
    }
  }
}
