/// Works out why a part of a history has no linearization: the smallest failing window, the longest prefix, the candidates.
///
/// The window is the shortest prefix in time that already fails: the history cut at the
/// earliest return time such that the operations called by then (those still running
/// counted as of unknown outcome) have no linearization. Linearizability is closed under
/// such cuts, so a binary search over the return times finds it.
///
/// Explaining costs at most what deciding did, or ``stepFloor`` steps, whichever is more:
/// the window's probes share that budget of search steps (``WingGongSearch/Work``). When
/// it runs out, the smallest cut known to fail is the window, and the violation says it
/// may not be the smallest. A budget in work rather than time makes the explanation the
/// same on a loaded machine as on an idle one.
struct Explainer<Model: HistoryModel> {
  let history: TypedHistory<Model>
  let part: Partition<Model>
  let deadline: Deadline
  /// The steps of the search that decided the part; the explanation may spend as many.
  var decidingSteps = 0

  /// The steps the explanation may spend however cheaply the part was decided: about 100 ms of search.
  static var stepFloor: Int { 100_000 }

  /// The time the search for the smallest window may take in all, whatever its steps.
  static var windowTime: Duration { .seconds(1) }

  /// The steps the explanation may spend.
  var stepBudget: Int { max(decidingSteps, Self.stepFloor) }

  /// The violation of the part that `outcome` found failing, and the steps spent explaining it.
  func violation(_ outcome: PartOutcome<Model>) -> (violation: Violation, steps: Int) {
    var spent = 0
    let window: (operations: [Int], extent: Violation.WindowExtent)
    var proof: Violation.Proof?
    var result = outcome.result
    if let found = outcome.proof {
      let operation = part.operations[found.operation]
      proof = Self.violationProof(found, members: part.operations)
      let cut = history.returnTimes[operation]
      window = (inCallOrder(calledBy: cut), .upToProof)
      // The proof needs no order; a bounded search still shows how far one gets.
      let budget = WingGongSearch.Budget(deadline: deadline, steps: stepBudget)
      let probe = PartOutcome.search(part, of: history, budget: budget, until: cut, proves: false)
      spent += probe.work.steps
      result = probe.result
    } else {
      let found = smallestWindow(budget: stepBudget)
      window = (found.operations, found.extent)
      spent += found.steps
      // A search decided the part; a proof within the window, where there is one, says in
      // one line what the window shows, and else one later in the part names the plainest
      // anomaly there is (a stale read), which a reader checks by hand.
      proof =
        proofWithin(found.operations, cut: found.cut)
        ?? proofWithin(inCallOrder(calledBy: .max), cut: .max)
    }
    let prefix: [Int]
    switch result {
    case .notLinearizable(let longest, _), .unknown(let longest, _): prefix = longest
    case .linearizable: prefix = []
    }
    let placed = prefix.map { part.operations[$0] }
    var state = part.initial
    for index in placed { _ = state.apply(history.steps[index]) }
    let violation = Violation(
      key: part.key, window: window.operations, windowExtent: window.extent, proof: proof,
      longestPrefix: placed, state: state.state,
      candidates: candidates(after: placed, in: state))
    return (violation, spent)
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

  /// The part's operations up to the earliest cut that still fails, whether the budget of `steps` let the search finish, and the steps spent.
  ///
  /// A probe that runs out of steps or time counts as not failing, which can only make the
  /// window longer, never wrong.
  func smallestWindow(budget steps: Int) -> (
    operations: [Int], extent: Violation.WindowExtent, steps: Int, cut: Int64
  ) {
    var spent = 0
    let end = Deadline.after(Self.windowTime)
    let cuts = Array(
      Set(
        part.operations.compactMap {
          history.returnTimes[$0] == .max ? nil : history.returnTimes[$0]
        })
    ).sorted()
    var low = 0
    var high = cuts.count  // `cuts.count` stands for the whole part, known to fail.
    var extent = Violation.WindowExtent.smallest
    while low < high {
      guard spent < steps else {
        extent = .budgetExhausted
        break
      }
      let middle = (low + high) / 2
      let budget = WingGongSearch.Budget(
        deadline: min(deadline, end), steps: steps - spent)
      let outcome = PartOutcome.search(part, of: history, budget: budget, until: cuts[middle])
      spent += outcome.work.steps
      switch outcome.result {
      case .notLinearizable: high = middle
      case .linearizable: low = middle + 1
      case .unknown:
        // Unknown below `high`: the window stays at the smallest cut known to fail.
        extent = .budgetExhausted
        low = middle + 1
      }
    }
    let cut = high < cuts.count ? cuts[high] : Int64.max
    return (inCallOrder(calledBy: cut), extent, spent, cut)
  }

  /// An impossible or stale read among `window`'s operations, those still running at `cut` counted as of unknown outcome; nil when there is none or the model has no such proof.
  private func proofWithin(_ window: [Int], cut: Int64) -> Violation.Proof? {
    let isInfo = window.map { history.statuses[$0] == .info || history.returnTimes[$0] > cut }
    let found: ProofWithoutSearch?
    if let keyValue = history as? TypedHistory<KeyValueModel>,
      let initial = part.initial as? KeyValueModel
    {
      found = ProofWithoutSearch.inKeyValueStore(
        keyValue, members: window, isInfo: isInfo, initial: initial)
    } else {
      found = ProofWithoutSearch.inRegister(
        history, members: window, isInfo: isInfo, initial: part.initial)
    }
    return found.map { Self.violationProof($0, members: window) }
  }

  /// A proof about positions in `members`, as the violation states it about the history's operations.
  private static func violationProof(_ found: ProofWithoutSearch, members: [Int]) -> Violation.Proof
  {
    let operation = members[found.operation]
    switch found {
    case .impossibleRead(let read):
      return .impossibleRead(operation: operation, value: read.value)
    case .staleRead(let read):
      return .staleRead(
        operation: operation, value: read.value, producers: read.producers.map { members[$0] },
        initialHeld: read.initialHeld, overwriter: members[read.overwriter])
    }
  }

  private func inCallOrder(calledBy cut: Int64) -> [Int] {
    part.operations.filter { history.callTimes[$0] <= cut }
      .sorted { (history.callTimes[$0], $0) < (history.callTimes[$1], $1) }
  }
}
