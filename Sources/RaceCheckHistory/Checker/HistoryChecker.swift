import Dispatch
import Synchronization

/// Checks a recorded history against its model: split by key where the model allows, the parts searched in parallel.
///
/// ```swift
/// let history = try HistoryFile.read(bytes, models: BuiltInModels.names)
/// let verdict = try HistoryChecker().check(history)
/// print(verdict.verdict)  // linearizable, not-linearizable or unknown
/// ```
public struct HistoryChecker: Sendable {
  /// How long the check may search before the parts it has not decided are `unknown`; nil for no limit.
  ///
  /// ```swift
  /// let checker = HistoryChecker(timeout: .seconds(5))
  /// let verdict = try checker.check(history)  // .unknown if 5 s were not enough
  /// ```
  public var timeout: Duration?
  /// Whether to split the history by key when the model allows it.
  public var partitions: Bool
  /// Whether to finish every part after one has failed, instead of stopping the others.
  public var checksAllPartitions: Bool
  /// Whether to work out the window, the longest prefix and the candidates of a violation.
  public var explains: Bool
  /// What a `register` or `cas-register` read that returned nil means; by default, that the register held nil.
  package var nilReads: NilReadMeaning = .value
  /// Stops the search, leaving the parts it had not decided `unknown`, once it returns true.
  ///
  /// The engine sets it to ask whether SIGINT or SIGTERM came: this module watches no signals.
  package var isInterrupted: (@Sendable () -> Bool)?

  /// Creates a checker; by default, no time limit, partitioned, stopping at the first failing part, explaining.
  public init(
    timeout: Duration? = nil, partitions: Bool = true, checksAllPartitions: Bool = false,
    explains: Bool = true
  ) {
    self.timeout = timeout
    self.partitions = partitions
    self.checksAllPartitions = checksAllPartitions
    self.explains = explains
  }

  /// Histories of fewer operations are searched on one thread, part after part.
  static var smallHistory: Int { 4096 }

  /// Decodes `history` with its model and checks it; throws when the model rejects an operation or the initial state.
  public func check(_ history: RecordedHistory) throws(HistoryFileError) -> HistoryVerdict {
    guard let model = BuiltInModels.model(named: history.model) else {
      throw .unknownModel(history.model, known: BuiltInModels.names)
    }
    // Called with a concrete type, the generic check is compiled for it: opened from an
    // existential it looks up type metadata at every generic step, which on a history of a
    // thousand small parts cost more than the searches.
    switch model {
    case is KeyValueModel.Type: return try check(history, as: KeyValueModel.self)
    case is CASRegisterModel.Type: return try check(history, as: CASRegisterModel.self)
    case is RegisterModel.Type: return try check(history, as: RegisterModel.self)
    default: return try check(history, as: model)
    }
  }

  private func check<Model: HistoryModel>(_ history: RecordedHistory, as _: Model.Type)
    throws(HistoryFileError) -> HistoryVerdict
  {
    let started = MonotonicInstant.now()
    var decoded = try TypedHistory<Model>(history)
    // Reads that fit every state are left out of the search and put back into its order.
    let unknownReads = nilReads == .unknown ? decoded.readingNilAsUnknown() : []
    let typed = decoded
    let parts = Partition.parts(of: typed, split: partitions)
    let deadline = Deadline.after(timeout, from: started)
    let stop = StopFlag()
    let checksAll = checksAllPartitions
    let outcomes = PartResults<Model>(count: parts.count)
    // Largest parts first, so that the last one to start is a short one.
    let schedule = parts.indices.sorted { parts[$0].operations.count > parts[$1].operations.count }
    var budget = WingGongSearch.Budget(deadline: deadline)
    let isInterrupted = isInterrupted
    budget.shouldStop = { @Sendable in
      (!checksAll && stop.isRaised) || isInterrupted?() == true
    }
    let searchBudget = budget
    let work: @Sendable (Int) -> Void = { position in
      let index = schedule[position]
      let outcome = PartOutcome.search(parts[index], of: typed, budget: searchBudget)
      if case .notLinearizable = outcome.result { stop.raise() }
      outcomes.store(outcome, at: index)
    }
    // Waking threads costs more than searching a small history's parts one after another.
    if parts.count == 1 || typed.count < Self.smallHistory {
      for position in parts.indices {
        if !checksAll && stop.isRaised {
          // As the parallel searches do: a part not finished when another failed is unknown.
          let skipped = PartOutcome<Model>(
            result: .unknown(longestPrefix: [], state: 0), elapsed: .zero)
          outcomes.store(skipped, at: schedule[position])
        } else {
          work(position)
        }
      }
    } else {
      DispatchQueue.concurrentPerform(iterations: parts.count, execute: work)
    }
    let finished = outcomes.all
    var verdict = HistoryVerdict(
      verdict: .linearizable, parts: [], violation: nil, elapsed: .zero)
    for (part, outcome) in zip(parts, finished) {
      var witness: [Int]?
      if case .linearizable(let order) = outcome.result {
        // Register models are never split, so a left-out read belongs to the only part.
        witness = Witness.inserting(
          parts.count == 1 ? unknownReads : [], into: order.map { part.operations[$0] },
          callTimes: typed.callTimes, returnTimes: typed.returnTimes)
      }
      verdict.parts.append(
        HistoryVerdict.Part(
          key: part.key, operations: part.operations.count, verdict: outcome.kind,
          elapsed: outcome.elapsed, witness: witness))
    }
    if let failing = finished.firstIndex(where: { $0.kind == .notLinearizable }) {
      verdict.verdict = .notLinearizable
      if explains {
        let explainer = Explainer(
          history: typed, part: parts[failing], deadline: deadline,
          decidingSteps: finished[failing].work.steps)
        verdict.violation = explainer.violation(finished[failing]).violation
      }
    } else if finished.contains(where: { $0.kind == .unknown }) {
      verdict.verdict = .unknown
    }
    verdict.elapsed = started.elapsed
    return verdict
  }
}

/// The outcomes of the parts, filled in by the searches as they finish.
final class PartResults<Model: HistoryModel>: Sendable {
  private let slots: Mutex<[PartOutcome<Model>?]>

  init(count: Int) {
    slots = Mutex(Array(repeating: nil, count: count))
  }

  func store(_ outcome: PartOutcome<Model>, at index: Int) {
    slots.withLock { $0[index] = outcome }
  }

  /// Every outcome; called once all searches have finished.
  var all: [PartOutcome<Model>] {
    slots.withLock { $0.map { $0! } }
  }
}

/// One part's search and its outcome.
struct PartOutcome<Model: HistoryModel>: Sendable {
  var result: WingGongSearch.Result
  var elapsed: Duration
  /// What the search cost; nothing when a proof decided without it.
  var work = WingGongSearch.Work()
  /// The proof that decided the violation without search, when one did.
  var proof: ProofWithoutSearch?

  var kind: HistoryVerdict.Kind {
    switch result {
    case .linearizable: return .linearizable
    case .notLinearizable: return .notLinearizable
    case .unknown: return .unknown
    }
  }

  /// Searches one part; operation numbers in the result are positions in `part.operations`.
  ///
  /// With `proves`, a register's history is first tested for an ``ImpossibleRead`` and a
  /// ``StaleRead``, and searched with ``RegisterStateSpace``'s dead-end test; a key-value
  /// store's part that a search of ``quickSteps(operations:)`` steps does not decide is
  /// tested for a ``StaleRead`` before the search goes on. The proofs decide a violation
  /// without search. Without `proves`, the plain search runs: its longest prefix goes as
  /// far as any order gets, which is what an explanation shows.
  static func search(
    _ part: Partition<Model>, of history: TypedHistory<Model>, budget: WingGongSearch.Budget,
    until cut: Int64 = .max, proves: Bool = true
  ) -> PartOutcome {
    let started = MonotonicInstant.now()
    let members =
      cut == .max ? part.operations : part.operations.filter { history.callTimes[$0] <= cut }
    // After the cut, an operation still running has an unknown outcome.
    let isInfo = members.map { history.statuses[$0] == .info || history.returnTimes[$0] > cut }
    // A key-value store's part is the common case of thousands: it asks no conformance.
    let keyValue = history as? TypedHistory<KeyValueModel>
    if keyValue == nil, proves,
      let proof = ProofWithoutSearch.inRegister(
        history, members: members, isInfo: isInfo, initial: part.initial)
    {
      return PartOutcome(
        result: .notLinearizable(longestPrefix: [], state: 0),
        elapsed: started.elapsed, proof: proof)
    }
    let operations = WingGongSearch.Operations(
      zip(members, isInfo).map { index, info in
        WingGongSearch.Operations.Entry(
          callTime: history.callTimes[index], returnTime: info ? .max : history.returnTimes[index],
          isInfo: info, leavesStateUnchanged: !info && history.leavesStateUnchanged(index))
      })
    var work = WingGongSearch.Work()
    func run(_ budget: WingGongSearch.Budget) -> WingGongSearch.Result {
      if let keyValue, let key = part.key {
        // One key of a key-value store: states as string fingerprints, see KeyValueStateSpace.
        var space = KeyValueStateSpace(
          initial: keyValue.initial.values[key] ?? "", members: members, steps: keyValue.steps,
          results: keyValue.results, isInfo: isInfo)
        return WingGongSearch.run(operations, transitions: &space, budget: budget, work: &work)
      }
      if part.key == nil, let keyed = Model.self as? any KeyedHistoryModel.Type,
        let whole = searchWhole(
          keyed, steps: members.map { history.steps[$0] },
          results: members.map { history.results[$0] },
          initial: part.initial, operations: operations, budget: budget, work: &work)
      {
        // A whole history of independent keys: one search, states and learning per key.
        return whole
      }
      if proves, let register = Model.self as? any RegisterAccessModel.Type {
        // A register: the search also stops where a remaining read cannot be explained.
        return searchRegister(
          register, part: part, history: history, members: members, isInfo: isInfo,
          operations: operations, budget: budget, work: &work)
      }
      var space = StateSpace(initial: part.initial) { state, position in
        let operation = members[position]
        let returned = state.apply(history.steps[operation])
        return isInfo[position] || returned == history.results[operation]
      }
      return WingGongSearch.run(operations, transitions: &space, budget: budget, work: &work)
    }
    guard proves, let keyValue else {
      return PartOutcome(result: run(budget), elapsed: started.elapsed, work: work)
    }
    // Most keys' parts are decided by a search that seldom backtracks, in fewer steps than
    // the stale read's proof costs; the proof is for the parts that defeat such a search.
    let quick = quickSteps(operations: members.count)
    var first = budget
    first.steps = min(budget.steps ?? .max, quick)
    let result = run(first)
    guard case .unknown = result, work.steps >= quick else {
      return PartOutcome(result: result, elapsed: started.elapsed, work: work)
    }
    if let proof = ProofWithoutSearch.inKeyValueStore(
      keyValue, members: members, isInfo: isInfo, initial: part.initial as! KeyValueModel)
    {
      return PartOutcome(
        result: .notLinearizable(longestPrefix: [], state: 0), elapsed: started.elapsed,
        work: work, proof: proof)
    }
    if let steps = budget.steps, steps <= work.steps {
      return PartOutcome(result: result, elapsed: started.elapsed, work: work)
    }
    var rest = budget
    rest.steps = budget.steps.map { $0 - work.steps }
    return PartOutcome(result: run(rest), elapsed: started.elapsed, work: work)
  }

  /// The steps of the search a key-value store's part gets before it is tested for a ``StaleRead``: a few per operation, as a search that seldom backtracks takes.
  ///
  /// On the generated histories of 10 keys such a search takes 1.2 steps an operation.
  static func quickSteps(operations: Int) -> Int { 16 * operations + 4096 }

  /// Searches a register's part with ``RegisterStateSpace``'s dead-end test.
  private static func searchRegister<Register: RegisterAccessModel>(
    _: Register.Type, part: Partition<Model>, history: TypedHistory<Model>, members: [Int],
    isInfo: [Bool], operations: WingGongSearch.Operations, budget: WingGongSearch.Budget,
    work: inout WingGongSearch.Work
  ) -> WingGongSearch.Result {
    // Register == Model: the casts only name the conformance the caller found at run time.
    let steps = members.map { history.steps[$0] as! Register.Step }
    let results = members.map { history.results[$0] }
    let accesses = zip(steps.indices, isInfo).map { index, info in
      Register.access(steps[index], result: info ? Value?.none : .some(results[index]))
    }
    var space = RegisterStateSpace(initial: part.initial as! Register, accesses: accesses) {
      state, index in
      let returned = state.apply(steps[index])
      return isInfo[index] || returned == results[index]
    }
    return WingGongSearch.run(operations, transitions: &space, budget: budget, work: &work)
  }

  /// Searches a whole keyed history with ``KeyedWholeSearch``; nil when an operation spans keys.
  private static func searchWhole<Keyed: KeyedHistoryModel>(
    _: Keyed.Type, steps: [Model.Step], results: [Value], initial: Model,
    operations: WingGongSearch.Operations, budget: WingGongSearch.Budget,
    work: inout WingGongSearch.Work
  ) -> WingGongSearch.Result? {
    var names: [String] = []
    var numbers: [String: Int] = [:]
    var keys: [Int] = []
    keys.reserveCapacity(steps.count)
    for step in steps {
      // Keyed == Model: the cast only names the conformance the caller found at run time.
      guard let name = Keyed.key(of: step as! Keyed.Step) else { return nil }
      if numbers[name] == nil {
        numbers[name] = names.count
        names.append(name)
      }
      keys.append(numbers[name]!)
    }
    var members = [[Int]](repeating: [], count: names.count)
    for (operation, key) in keys.enumerated() { members[key].append(operation) }
    let isInfo = operations.entries.map(\.isInfo)
    if let keyValueSteps = steps as? [KeyValueModel.Step], let store = initial as? KeyValueModel {
      var spaces = names.indices.map { key in
        KeyValueStateSpace(
          initial: store.values[names[key]] ?? "", members: members[key], steps: keyValueSteps,
          results: results, isInfo: members[key].map { isInfo[$0] })
      }
      return KeyedWholeSearch.run(
        operations, keys: keys, spaces: &spaces, budget: budget, work: &work)
    }
    let map = initial as! Keyed
    var spaces = names.indices.map { key in
      let own = members[key]
      return StateSpace(initial: map.restricted(to: names[key]) as! Model) { state, operation in
        let returned = state.apply(steps[own[operation]])
        return isInfo[own[operation]] || returned == results[own[operation]]
      }
    }
    return KeyedWholeSearch.run(
      operations, keys: keys, spaces: &spaces, budget: budget, work: &work)
  }
}

/// A flag one search raises to stop the others.
final class StopFlag: Sendable {
  private let raised = Atomic<Bool>(false)

  var isRaised: Bool { raised.load(ordering: .relaxed) }

  func raise() {
    raised.store(true, ordering: .relaxed)
  }
}
