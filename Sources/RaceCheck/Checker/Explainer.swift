/// Works out why a part of a history has no linearization: the smallest failing window, the longest prefix, the candidates.
///
/// The window is the shortest prefix in time that already fails: the history cut at the
/// earliest return time such that the operations called by then (those still running
/// counted as of unknown outcome) have no linearization. Linearizability is closed under
/// such cuts, so a binary search over the return times finds it.
struct Explainer<Model: HistoryModel> {
  let history: TypedHistory<Model>
  let part: Partition<Model>
  let deadline: Int64?

  /// The time the search for the smallest window may take in all.
  static var windowSeconds: Double { 1 }

  func violation(_ result: WingGongSearch.Result) -> Violation {
    let prefix: [Int]
    switch result {
    case .notLinearizable(let longest, _), .unknown(let longest, _): prefix = longest
    case .linearizable: prefix = []
    }
    let placed = prefix.map { part.operations[$0] }
    var state = part.initial
    for index in placed { _ = state.apply(history.steps[index]) }
    return Violation(
      key: part.key, window: window(), longestPrefix: placed, state: state.state,
      candidates: candidates(after: placed, in: state))
  }

  /// The operations that could be placed next: not placed, and not preceded by any unplaced operation with a known outcome.
  private func candidates(after placed: [Int], in state: Model) -> [Violation.Candidate] {
    let placedSet = Set(placed)
    let open = part.operations.filter { !placedSet.contains($0) }
    let firstReturn =
      open.filter { history.statuses[$0] != .info }.map { history.returnTimes[$0] }
      .min() ?? .max
    return open.filter { history.callTimes[$0] <= firstReturn }.map { index in
      var next = state
      let expected = next.apply(history.steps[index])
      let info = history.statuses[index] == .info
      return Violation.Candidate(
        operation: index, returned: info ? Value?.none : .some(history.results[index]),
        modelReturns: expected,
        fits: info || expected == history.results[index])
    }
  }

  /// The part's operations up to the earliest cut that still fails, in call order.
  ///
  /// The probes share one budget of ``windowSeconds``; a probe that runs out counts as
  /// not failing, which can only make the window longer, never wrong.
  private func window() -> [Int] {
    let end = MonotonicClock.now() + Int64(Self.windowSeconds * 1e9)
    let cuts = Array(
      Set(
        part.operations.compactMap {
          history.returnTimes[$0] == .max ? nil : history.returnTimes[$0]
        })
    ).sorted()
    var low = 0
    var high = cuts.count  // `cuts.count` stands for the whole part, known to fail.
    while low < high {
      let middle = (low + high) / 2
      let budget = WingGongSearch.Budget(deadline: deadline.map { min($0, end) } ?? end)
      let outcome = PartOutcome.search(part, of: history, budget: budget, until: cuts[middle])
      if case .notLinearizable = outcome.result { high = middle } else { low = middle + 1 }
    }
    let cut = high < cuts.count ? cuts[high] : Int64.max
    return part.operations.filter { history.callTimes[$0] <= cut }
      .sorted { (history.callTimes[$0], $0) < (history.callTimes[$1], $1) }
  }
}
