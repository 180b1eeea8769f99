/// Decides whether each invocation of one scenario has a linearization, searching as rarely as it can.
///
/// Invocations of one scenario repeat themselves: the same results come back again and
/// again, with slightly different timing. A linearization found once is reused for
/// every later invocation with the same results whose real-time order it respects,
/// which takes one pass over the order instead of a search. An outcome found to have
/// no linearization is remembered by its results and real-time order, so repeats are
/// counted without a search too.
final class OutcomeChecker<Model: Hashable & Sendable> {
  /// What the checker says of one invocation.
  enum Verdict {
    case linearizable
    /// No linearization; `longestPrefix` and `state` are from the search, nil when the outcome was seen before.
    case notLinearizable(longestPrefix: [Int], state: Model)
    case repeatedFailure
    /// The deadline passed before the search decided: the invocation tested nothing.
    case undecided
  }

  private let initial: Model
  private let steps: [@Sendable (inout Model) -> Value]
  private let columnRanges: [Range<Int>]
  /// What the checker knows of each result vector, whatever its timing.
  private var byResults: [[Value]: SeenResults] = [:]
  private var failing = Set<InvocationOutcome>()
  /// The number of searches run, one per outcome that no earlier one decided.
  private(set) var searches = 0
  /// The number of invocations decided.
  private(set) var invocations = 0
  /// The number of result vectors exactly one invocation returned.
  private(set) var resultsSeenOnce = 0

  /// Keeps a few orders per result vector: enough for the timings that recur, bounded for the ones that do not.
  private static var witnessesPerResults: Int { 8 }

  init(initial: Model, steps: [@Sendable (inout Model) -> Value], columnRanges: [Range<Int>]) {
    self.initial = initial
    self.steps = steps
    self.columnRanges = columnRanges
  }

  /// Decides `record`; past `deadline` a search gives up undecided.
  func check(_ record: InvocationRecord, deadline: Deadline = .distantFuture) -> Verdict {
    // One lookup of the results per invocation, which runs for every invocation of a scenario.
    check(record, seen: &byResults[record.results, default: SeenResults()], deadline: deadline)
  }

  /// The Good–Turing estimate of the chance that the next invocation returns results none has: the share of invocations whose results no other returned.
  var chanceOfNewResults: Double {
    invocations == 0 ? 1 : Double(resultsSeenOnce) / Double(invocations)
  }

  /// Decides `record`, whose results were seen as `seen` so far, and counts it.
  private func check(_ record: InvocationRecord, seen: inout SeenResults, deadline: Deadline)
    -> Verdict
  {
    let verdict = decide(record, witnesses: &seen.witnesses, deadline: deadline)
    if case .undecided = verdict { return verdict }
    invocations += 1
    seen.invocations += 1
    if seen.invocations == 1 {
      resultsSeenOnce += 1
    } else if seen.invocations == 2 {
      resultsSeenOnce -= 1
    }
    return verdict
  }

  /// Decides `record` from the witnesses of its results and the failures seen, or by a search.
  private func decide(_ record: InvocationRecord, witnesses: inout [[Int]], deadline: Deadline)
    -> Verdict
  {
    if witnesses.contains(where: { Self.respectsRealTime($0, record) }) { return .linearizable }
    let outcome = InvocationOutcome(record, columnRanges: columnRanges)
    if failing.contains(outcome) { return .repeatedFailure }
    searches += 1
    let steps = self.steps
    let results = record.results
    let intervals = record.callTimes.indices.map {
      LinearizabilityChecker<Model>.Interval(
        callTime: record.callTimes[$0], returnTime: record.returnTimes[$0])
    }
    let search = LinearizabilityChecker(intervals: intervals, initial: initial) { state, index in
      steps[index](&state) == results[index]
    }
    switch search.check(deadline: deadline) {
    case .linearizable(let order):
      if witnesses.count < Self.witnessesPerResults { witnesses.append(order) }
      return .linearizable
    case .notLinearizable(let prefix, let state):
      failing.insert(outcome)
      return .notLinearizable(longestPrefix: prefix, state: state)
    case .undecided:
      return .undecided
    }
  }

  /// Whether `order` never places an operation before one that returned before it was called.
  static func respectsRealTime(_ order: [Int], _ record: InvocationRecord) -> Bool {
    var earliestLaterReturn = Int64.max
    for index in order.reversed() {
      if earliestLaterReturn < record.callTimes[index] { return false }
      earliestLaterReturn = min(earliestLaterReturn, record.returnTimes[index])
    }
    return true
  }
}

/// One result vector: how many decided invocations returned it, and orders found to linearize it.
///
/// Not nested in the generic checker, where it would be generic too: the dictionary of them,
/// looked up once per invocation, then needs no metadata made at run time.
private struct SeenResults {
  var invocations = 0
  var witnesses: [[Int]] = []
}
