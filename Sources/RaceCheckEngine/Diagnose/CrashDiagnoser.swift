/// Names the bug a crash or a hang shows, from its stack, the calls in flight and the model, or says `unclassified`.
///
/// The model's state at the crash is known only where the scenario ran on one thread:
/// the init part, or a scenario with a single thread. A rule that needs the state names
/// its bug only there; elsewhere the crash stays `unclassified` unless the stack alone
/// tells. What a call is (a read at an index, an indexed write, a snapshot) is its step in
/// the array model, whatever the spec calls it; a call without one is none of them.
struct CrashDiagnoser {
  let evidence: CrashEvidence
  let scenario: Scenario
  /// The array model's elements after a sequence of calls, or nil when the spec's model is not an array.
  let arrayAfter: ([Scenario.Call]) -> [Value]?
  /// The array model's step for a call (``Spec/arrayStep(of:)``), or nil when the spec's model is not an array or the call's operation has its own model closure.
  let arrayStep: (Scenario.Call) -> ArrayModel.Step?
  /// Whether the scenario, run with its threads one after another, crashes too; nil when unknown.
  let crashesSequentially: () -> Bool?
  /// A call of the spec that its model says makes the array non-empty (see ``IndexGuardProbe/fillingCall(of:)``); nil when none does.
  var fillingCall: Scenario.Call? = nil
  /// Whether a call's operation traps where its requirement fails, by contract (``Operation/requires(_:)``), so that no guard of its is in question.
  var trapsByContract: (Scenario.Call) -> Bool = { _ in false }
  /// Runs a scenario of one thread in a fresh child and says how it ended; nil when it could not run.
  ///
  /// It runs the scenario `invocations` times, then again in the same child, run after run
  /// until `settle` has passed (at least once): a block the calls submitted may trap after
  /// they returned, and its death comes back then.
  var runAlone:
    (_ scenario: Scenario, _ invocations: Int, _ settle: Duration) -> IndexGuardProbe.Run? = {
      _, _, _ in nil
    }
  /// The invocations of a call made alone to see whether it submits a trapping block: a block runs when a worker thread gets to it, so many give it time.
  static let blockProbeInvocations = 200
  /// How long a call made alone keeps being made before it counts as submitting no trapping block.
  ///
  /// On a busy machine a dispatch worker may not run the first blocks before a few hundred
  /// calls return; only a call that traps in no block pays the whole of it.
  static let blockProbeSettle = Duration.seconds(2)

  static let indexTraps = ["out of range", "Index out of bounds"]

  func diagnose() -> Diagnosis {
    if let diagnosis = syncOnCurrentQueue() { return diagnosis }
    let readTrap = emptyArrayReadTrap()
    if let assertion = evidence.failedAssertion { return Self.failedAssertion(assertion) }
    return readTrap.flatMap(unsignedUnderflow) ?? uncheckedAsyncWrite() ?? escapedLiveStorage()
      ?? writerCrashedUnderEscapedReader() ?? memoryCorruption() ?? corruptResult() ?? dataRace()
      ?? readTrap.map(unexplainedReadTrap)
      ?? Diagnosis(
        .unclassified,
        evidence: "the child \(evidence.kind == .hang ? "hung" : "crashed")"
          + (evidence.message.map { " (\($0))" } ?? "")
          + "; the scenario, the calls in flight and the stack are the evidence")
  }

  /// Whether another crash of the same scenario may name the bug better than `diagnosis`, this crash's.
  ///
  /// A racy bug shows different faces from run to run. A hang or an unexplained crash may
  /// crash tellingly the next time. So may memory corruption on a runner thread outside any
  /// queue: code racing with the call causes it, and so does a wrapper that handed the call
  /// its live storage to read after leaving its queue, which another run may show.
  func anotherCrashMayTellMore(than diagnosis: Diagnosis) -> Bool {
    switch diagnosis.pattern {
    case .unclassified:
      return true
    case .dataRace:
      return evidence.isMemoryCorruption && evidence.runnerThread != nil && !isInsideAQueue
    default:
      return false
    }
  }

  /// Whether the crashing thread was running a block of a dispatch queue, or of a `SyncQueue` under the scheduler.
  private var isInsideAQueue: Bool {
    evidence.functions.contains {
      $0.contains("_dispatch_") || $0.contains("DispatchQueue") || $0.contains("SyncQueue")
    }
  }

  private func syncOnCurrentQueue() -> Diagnosis? {
    guard evidence.functions.contains(where: { $0.contains("__DISPATCH_WAIT_FOR_QUEUE__") }) else {
      return nil
    }
    return Diagnosis(
      .syncOnCurrentQueue,
      evidence:
        "libdispatch trapped in __DISPATCH_WAIT_FOR_QUEUE__\(trapSite): a queue.sync onto the queue the "
        + "thread was already running on, which deadlocks (Linux's libdispatch traps instead)")
  }

  /// Where the trap was: the call on a runner thread, or the block on a thread racecheck did not start.
  ///
  /// A block that runs on a dispatch worker was submitted by some call that may have
  /// returned long before; the calls in flight then are other threads' calls, so none is
  /// named unless an experiment proves it (see ``blockSubmitters(of:)``). The block is
  /// named by its outermost closure on the stack.
  private var trapSite: String {
    if evidence.runnerThread != nil { return crashingCall.map { " in \($0)" } ?? "" }
    let closure = evidence.functions.last { $0.contains("closure #") }
    let block = closure.map { " (\($0))" } ?? ""
    let thread = evidence.threadName.map { "thread '\($0)'" } ?? "a thread"
    let site = " in a block\(block) on \(thread), which racecheck did not start"
    let submitters = closure.map(blockSubmitters) ?? []
    guard let first = submitters.first else {
      return site + ", so no call in flight made it and the call that submitted it is not proven"
    }
    let which = submitters.count == 1 ? "\(first)" : "one of \(Self.list(submitters))"
    return site + ", submitted by \(which): made alone on one thread, "
      + (submitters.count == 1 ? "it traps" : "each traps") + " the same way in that block"
  }

  /// The distinct calls of the scenario that, each made alone on one thread from a fresh subject, trap in a block with `closure` on its stack, on a thread racecheck did not start.
  ///
  /// Such a call submitted that block: nothing else ran. A call that needs state the calls
  /// before it made does not trap alone and is not named.
  private func blockSubmitters(of closure: String) -> [Scenario.Call] {
    var tried = Set<Scenario.Call>()
    return scenario.allCalls.filter { call in
      guard tried.insert(call).inserted,
        case .failed(.death(let crash))? = runAlone(
          Scenario(initial: [call]), Self.blockProbeInvocations, Self.blockProbeSettle)
      else { return false }
      return crash.kind == .crash && crash.runnerThread == nil && crash.functions.contains(closure)
        && crash.functions.contains { $0.contains("__DISPATCH_WAIT_FOR_QUEUE__") }
    }
  }

  /// `a, b and c`.
  private static func list(_ calls: [Scenario.Call]) -> String {
    let names = calls.map(\.description)
    guard let last = names.last, names.count > 1 else { return names.joined() }
    return names.dropLast().joined(separator: ", ") + " and " + last
  }

  /// A read that trapped on its own thread on an index the model says is out of range, on an empty array, with what the index probe showed.
  struct EmptyArrayReadTrap {
    /// The read.
    var call: Scenario.Call
    /// The probe run, or nil when no operation of the spec makes the array non-empty.
    var probe: IndexGuardProbe?
    /// What the probe showed.
    var finding: IndexGuardProbe.Finding
  }

  /// The read trap on an empty array, probed: the same read past the end of a non-empty array decides what it shows.
  private func emptyArrayReadTrap() -> EmptyArrayReadTrap? {
    guard isIndexTrap, evidence.runnerThread != nil, let point = crashPoint,
      let call = crashingCall, case .get(let index)? = arrayStep(call), !trapsByContract(call),
      let elements = arrayAfter(sequentialPrefix(before: point)), elements.isEmpty
    else { return nil }
    guard let fillingCall,
      let probe = IndexGuardProbe(
        trapping: call, at: index, filling: fillingCall, arrayAfter: arrayAfter)
    else { return EmptyArrayReadTrap(call: call, probe: nil, finding: .inconclusive) }
    return EmptyArrayReadTrap(
      call: call, probe: probe,
      finding: probe.finding(of: runAlone(probe.scenario, IndexGuardProbe.invocations, .zero)))
  }

  /// The read trap on an empty array, where a read past the end of a non-empty array returns nil: the unsigned guard wraps at count 0 only.
  private func unsignedUnderflow(_ trap: EmptyArrayReadTrap) -> Diagnosis? {
    guard trap.finding == .guarded, let probe = trap.probe,
      case .get(let index)? = arrayStep(trap.call)
    else { return nil }
    return Diagnosis(
      .unsignedUnderflowBoundsCheck,
      evidence:
        "\(trap.call) trapped with \(evidence.message ?? "an index trap") on an array the model holds empty, where it "
        + "returns nil, yet \(probe) returned nil: a guard rejects an index out of range except at count 0, "
        + "where the unsigned guard index <= count - 1 wraps to the maximum and passes (index \(index))"
    )
  }

  /// The read trap on an empty array that no rule explains: what was seen, and why it is not named.
  private func unexplainedReadTrap(_ trap: EmptyArrayReadTrap) -> Diagnosis {
    let seen =
      "\(trap.call) trapped with \(evidence.message ?? "an index trap") on an array the model holds empty, "
      + "where it returns nil"
    let why: String
    switch (trap.finding, trap.probe) {
    case (.unchecked, let probe?):
      why =
        ", and \(probe) traps too, where the model returns nil: the type checks no index, so this is "
        + "not an unsigned guard, which fails at count 0 only"
    case (_, nil):
      why =
        "; no operation of the spec makes the array non-empty, as its model says from the initial "
        + "state, so a read that checks no index cannot be told from an unsigned guard "
        + "index <= count - 1, which fails at count 0 only"
    case (_, let probe?):
      why =
        "; \(probe) neither returned nil nor trapped on its index, so a read that "
        + "checks no index cannot be told from an unsigned guard index <= count - 1, which fails at count 0 only"
    }
    return Diagnosis(.unclassified, evidence: seen + why)
  }

  /// A trap on a thread racecheck did not start, after a write with an invalid index returned.
  ///
  /// Where threads ran in parallel the model's state is not known, so every order of
  /// their calls is tried: a write whose index is invalid in some order may be the one.
  private func uncheckedAsyncWrite() -> Diagnosis? {
    guard evidence.runnerThread == nil, evidence.kind == .crash else { return nil }
    // Every call counts, the ones after those in flight too: each invocation runs the whole
    // scenario, and a block an earlier invocation submitted may run during a later one.
    for order in possibleOrders(through: scenario.size - 1) {
      for (position, call) in order.enumerated() {
        // An insert is valid at count too; a removal or a replacement only at an element.
        let index: Int
        let validAtCount: Bool
        switch arrayStep(call) {
        case .insert(_, let at)?: (index, validAtCount) = (at, true)
        case .remove(let at)?, .replace(let at, _)?: (index, validAtCount) = (at, false)
        default: continue
        }
        guard let elements = arrayAfter(Array(order[..<position])) else { continue }
        let valid =
          validAtCount ? (0...elements.count).contains(index) : elements.indices.contains(index)
        guard !valid else { continue }
        return Diagnosis(
          .uncheckedIndexInAsyncWrite,
          evidence:
            "\(call) on an array of \(elements.count) element\(elements.count == 1 ? "" : "s") returned, and its "
            + "block then trapped on \(evidence.threadName.map { "'\($0)'" } ?? "a dispatch worker")"
            + (evidence.message.map { " with \($0)" } ?? "")
            + ": the asynchronous write checks no index, so the trap happens where no caller can see an error"
        )
      }
    }
    return nil
  }

  /// A read crashed walking an enumerator outside any queue while another thread wrote to the storage under it.
  ///
  /// The enumerator was handed out by the call and read after it left the wrapper's
  /// queue: an enumerator over a copy would not crash, so the crash shows that it walks
  /// the live storage.
  private func escapedLiveStorage() -> Diagnosis? {
    guard evidence.kind == .crash, evidence.runnerThread != nil, let call = crashingCall,
      arrayStep(call) == .snapshot,
      evidence.functions.contains(where: { $0.contains("nextObject") }), !isInsideAQueue,
      evidence.inFlight.count > 1 || scenario.activeThreads > 1
    else { return nil }
    return Diagnosis(
      .escapedLiveStorage,
      evidence:
        "\(call) crashed reading, outside the queue, the storage the wrapper handed out while another thread "
        + "wrote to it: the operation returns the live internal storage (or an enumerator over it), not a copy"
    )
  }

  /// A writer crashed inside the wrapper's queue while another thread read a snapshot outside it.
  ///
  /// The writes are serialized by the queue, so the only code that can have touched the
  /// storage at the same time is the snapshot, reading after its call left the queue:
  /// what it reads is the live storage, not a copy.
  private func writerCrashedUnderEscapedReader() -> Diagnosis? {
    guard evidence.kind == .crash, let thread = evidence.runnerThread, let call = crashingCall,
      let step = arrayStep(call), !ArrayModel.leavesStateUnchanged(step, result: nil),
      isInsideAQueue,
      let reader = evidence.inFlight.first(where: {
        $0.thread != thread && arrayStep($0.call) == .snapshot
      })
    else { return nil }
    return Diagnosis(
      .escapedLiveStorage,
      evidence:
        "\(call) crashed inside the wrapper's queue while \(reader.call) on thread \(reader.thread) was reading "
        + "outside it: the writes are serialized, so the snapshot must read the live internal storage, not a copy"
    )
  }

  /// A crash by memory corruption, not by a Swift trap, where other code ran alongside.
  ///
  /// A Swift trap is SIGILL; SIGSEGV, SIGBUS or SIGABRT from the allocator or the runtime's
  /// reference counting mean that some code used memory another thread freed or changed
  /// under it, which safe Swift run on one thread cannot do.
  private func memoryCorruption() -> Diagnosis? {
    guard evidence.isMemoryCorruption, let signal = evidence.signal,
      let alongside = codeRanAlongside
    else { return nil }
    let place =
      evidence.runnerThread == nil
      ? "a block on \(evidence.threadName.map { "'\($0)'" } ?? "a dispatch worker")"
      : "thread \(evidence.runnerThread!)"
    return Diagnosis(
      .dataRace,
      evidence:
        "\(place) died of \(signal), memory corruption rather than a Swift trap, \(alongside): "
        + "code on two threads touched the same state without synchronization")
  }

  /// The code's own `assert` failed: that is what the death shows, and not which bug broke the condition.
  ///
  /// Its condition may fail in one order of the code's locked steps as well as in a race on
  /// memory, or on every run: naming a race would be a guess.
  static func failedAssertion(_ assertion: String) -> Diagnosis {
    Diagnosis(
      .unclassified,
      evidence:
        "the code's own assertion failed (\(assertion)), and the C library aborted: the condition did "
        + "not hold in this run; the scenario, the calls in flight and the stack show where, and no "
        + "bug is named without evidence of which")
  }

  /// Why code other than the crashing call's may have run at the moment of the crash, or nil when none did.
  ///
  /// One thread running safe Swift does the same on every run of a scenario, so a crash
  /// that spared the identical runs before it depended on timing: a thread the code under
  /// test started itself, such as a dispatch block still running, touched the state too.
  private var codeRanAlongside: String? {
    if evidence.runnerThread == nil { return "on a thread the code under test started" }
    if scenario.activeThreads > 1 { return "in a scenario whose operations ran at the same time" }
    if let invocation = evidence.invocation, invocation > 0 {
      return
        "on the scenario's only thread, in run \(invocation + 1) after \(invocation) identical "
        + "run\(invocation == 1 ? "" : "s") that did not crash: the crash depended on timing, so a thread "
        + "the code under test started (a dispatch block, say) ran alongside"
    }
    return nil
  }

  /// racecheck's own code trapped reading a value an operation returned, with other code running alongside.
  ///
  /// racecheck only reads what the code under test hands back; a trap there (an array
  /// whose count does not match its storage, say) means the value was corrupt when it
  /// was returned, which memory written by two threads at once produces.
  private func corruptResult() -> Diagnosis? {
    guard evidence.kind == .crash, let thread = evidence.runnerThread,
      evidence.layer == FrameKind.raceCheck.displayName, let alongside = codeRanAlongside
    else { return nil }
    let call = crashingCall.map { "the value \($0) returned" } ?? "a value an operation returned"
    return Diagnosis(
      .dataRace,
      evidence:
        "thread \(thread) trapped\(evidence.message.map { " (\($0))" } ?? "") in racecheck's own code reading "
        + "\(call), \(alongside): the value was corrupt, as memory written by two threads at once "
        + "leaves it; the code touches shared state without synchronization")
  }

  /// A crash in the parallel part that does not happen when the threads run one after another.
  private func dataRace() -> Diagnosis? {
    guard evidence.kind == .crash, scenario.activeThreads > 1,
      let point = crashPoint, point >= scenario.initial.count, crashesSequentially() == false
    else { return nil }
    return Diagnosis(
      .dataRace,
      evidence:
        "the child crashed"
        + (evidence.message.map { " (\($0))" } ?? evidence.signal.map { " (\($0))" } ?? "")
        + " while its threads ran concurrently, and the same scenario with its threads run one after "
        + "another does not crash: the threads touch shared state without synchronization")
  }

  private var isIndexTrap: Bool {
    guard let message = evidence.message else { return false }
    return Self.indexTraps.contains { message.contains($0) }
  }

  /// The history index of the call the crashing thread had in flight, or else the earliest call in flight.
  private var crashPoint: Int? {
    let calls = scenario.allCalls
    // The recorder gives each call's index; an identical call earlier in the same column
    // would otherwise be taken for it.
    func index(of flight: CrashEvidence.InFlightCall) -> Int? {
      if let index = flight.index, calls.indices.contains(index), calls[index] == flight.call {
        return index
      }
      return calls.indices.first { calls[$0] == flight.call && isInColumn($0, of: flight.thread) }
    }
    if let thread = evidence.runnerThread,
      let flight = evidence.inFlight.first(where: { $0.thread == thread }),
      let point = index(of: flight)
    {
      return point
    }
    return evidence.inFlight.compactMap(index(of:)).min()
  }

  /// The call the crashing runner thread had in flight; nil on a thread racecheck did not start, where the calls in flight are other threads'.
  private var crashingCall: Scenario.Call? {
    guard let thread = evidence.runnerThread else { return nil }
    return evidence.inFlight.first { $0.thread == thread }?.call
  }

  /// Whether history index `index` is a call thread `thread` makes (thread 0 also makes the init and post parts).
  private func isInColumn(_ index: Int, of thread: Int) -> Bool {
    let initial = scenario.initial.count
    if index < initial { return thread == 0 }
    var offset = initial
    for (column, calls) in scenario.parallel.enumerated() {
      if index < offset + calls.count { return column == thread }
      offset += calls.count
    }
    return thread == 0
  }

  /// Every order in which the calls up to history index `point` may have taken effect, or none when there are too many.
  ///
  /// The init part runs first and the post part last; the parallel columns interleave
  /// in every way that keeps each column's order. Orders end with the call at `point`.
  private func possibleOrders(through point: Int) -> [[Scenario.Call]] {
    let calls = scenario.allCalls
    guard calls.indices.contains(point) else { return [] }
    let initial = scenario.initial.count
    let parallelEnd = initial + scenario.parallel.reduce(0) { $0 + $1.count }
    if point < initial || scenario.activeThreads <= 1 { return [Array(calls[...point])] }
    // The columns' calls by history index, each cut at `point` when it is in that column.
    var columns: [[Int]] = []
    var offset = initial
    for column in scenario.parallel {
      let indices = Array(offset..<offset + column.count)
      offset += column.count
      columns.append(indices.contains(point) ? indices.filter { $0 <= point } : indices)
    }
    let limit = 5_000
    var orders: [[Int]] = []
    func interleave(_ positions: [Int], _ order: [Int]) {
      guard orders.count < limit else { return }
      var advanced = false
      for (column, position) in positions.enumerated() where position < columns[column].count {
        advanced = true
        var next = positions
        next[column] += 1
        interleave(next, order + [columns[column][position]])
      }
      if !advanced { orders.append(order) }
    }
    interleave(Array(repeating: 0, count: columns.count), [])
    guard orders.count < limit else { return [] }
    return orders.compactMap { order in
      var full = Array(0..<initial) + order
      if point >= parallelEnd {
        full += Array(parallelEnd...point)
      } else {
        // The order ends at `point`: later calls of other columns may not have happened yet.
        guard let end = full.firstIndex(of: point) else { return nil }
        full = Array(full[...end])
      }
      return full.map { calls[$0] }
    }
  }

  /// The calls known to have completed, in order, before the call at `point`: only where one thread ran.
  private func sequentialPrefix(before point: Int) -> [Scenario.Call] {
    let calls = scenario.allCalls
    if point <= scenario.initial.count || scenario.activeThreads <= 1 {
      return Array(calls[..<min(point, calls.count)])
    }
    return scenario.initial
  }
}
