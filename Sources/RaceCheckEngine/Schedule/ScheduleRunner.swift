import CRaceCheckInterposer

/// Runs one scenario of a spec under controlled schedules, one schedule at a time.
///
/// Thread 0 makes the subject, runs the init part, opens the gate for the other
/// columns' threads, runs its own column, waits for the others, then runs the post
/// part. Every operation starts at a scheduling point, and so does every primitive
/// step inside it. Times in the history are the order of those steps, so the history
/// is exactly the interleaving that ran.
final class ScheduleRunner<Subject, Model: Hashable & Sendable> {
  /// What one schedule produced.
  struct Outcome {
    var index: Int
    var record: InvocationRecord
    var returned: [Bool]
    var trace: InterleavingTrace
    var race: DataRace?
    var deadlock: Deadlock?
    var cutOff: Bool
    var findings: [Finding]
    var readsAfterLeaving: [ControlledScheduler.ReadAfterLeaving]
    var error: (call: Int, error: any Error)?
    /// The expectations that failed on the schedule's threads, for an exploration's body (``Spec/isExploration``).
    var failedExpectations: [ExpectationFailure]
    /// What the code synchronized through that the scheduler could not see (``ControlledScheduler/unseenSynchronization``).
    var unseenSynchronization: [String]
    /// The code of C threads the schedule ran, and where its traced loads and stores came from (``UntracedCode``).
    var codeRun: Set<UInt>
    var tracedCode: Set<UInt>
    /// The name of the stored property or cell at an address the schedule accessed, if it has one.
    var nameOfCell: (UInt) -> String?
  }

  private let spec: Spec<Subject, Model>
  private let scenario: PreparedScenario<Subject, Model>
  private let settings: ScheduleSettings
  private let strategy: ControlledScheduler.StrategyBox
  private let calls: [Scenario.Call]
  /// Each call as a trace shows it, made once for all the scenario's schedules.
  private let callTexts: [String]
  /// Whether each call returns nothing to show, made once as well.
  private let callReturnsVoid: [Bool]
  /// Watches the run when it happens in an isolated child: each column registers its thread slot and marks its calls in flight.
  private let observer: (any RunObserver)?
  /// What its schedules share with the check's others: parked threads, class layouts.
  private let resources: ScheduleResources
  /// The schedule whose trace is streamed to ``observer`` as it runs, if any.
  var tracedSchedule: Int?
  /// Whether thread 0 runs on the process's main thread (``Spec/usesMainThread``).
  var rootOnMainThread = false
  /// Whether a schedule ended with thread 0 parked on the main thread, which then never runs again.
  private(set) var parkedTheMainThread = false

  convenience init(
    spec: Spec<Subject, Model>, scenario: PreparedScenario<Subject, Model>,
    settings: ScheduleSettings, seed: UInt64, replaying choices: [Int]? = nil,
    observer: (any RunObserver)? = nil, resources: ScheduleResources = ScheduleResources()
  ) {
    let strategy: any ScheduleStrategy
    // A request's own schedule (shrinking, a repro) comes first; the settings' replaces the search.
    if let choices = choices ?? settings.replayedSchedule?.choices {
      strategy = ReplayStrategy(choices: choices)
    } else {
      switch settings.strategy {
      case .random: strategy = RandomWalkStrategy(seed: seed)
      case .pct: strategy = PCTStrategy(seed: seed, depth: settings.depth)
      case .exhaustive: strategy = BoundedDFSStrategy(bound: settings.preemptionBound)
      case .dpor: strategy = DPORStrategy()
      }
    }
    self.init(
      spec: spec, scenario: scenario, settings: settings, strategy: strategy, observer: observer,
      resources: resources)
  }

  /// Creates a runner whose schedules `strategy` chooses.
  init(
    spec: Spec<Subject, Model>, scenario: PreparedScenario<Subject, Model>,
    settings: ScheduleSettings, strategy: any ScheduleStrategy, observer: (any RunObserver)? = nil,
    resources: ScheduleResources = ScheduleResources()
  ) {
    self.observer = observer
    self.resources = resources
    self.spec = spec
    self.scenario = scenario
    self.settings = settings
    calls = scenario.scenario.allCalls
    callTexts = calls.map(\.description)
    callReturnsVoid = calls.map { spec.voidOperations.contains($0.operation) }
    self.strategy = ControlledScheduler.StrategyBox(strategy)
  }

  /// Every call's model-side step, in history order.
  var steps: [@Sendable (inout Model) -> Value] { scenario.steps }

  /// Where a replayed schedule left the recorded one, if it did.
  var divergence: String? {
    (strategy.strategy as? ReplayStrategy)?.divergence
  }

  /// Runs schedule `index`, or returns nil when the strategy has no schedule left.
  func run(schedule index: Int) -> Outcome? {
    let scheduler = ControlledScheduler(
      strategy: strategy, maxSteps: settings.maxSteps, resources: resources)
    scheduler.injectedFault = settings.injectedFault
    // A replay of a schedule the reduction found judges its race as the reduction did.
    scheduler.judgesRacesByOrderAlone = settings.strategy == .dpor
    if index == tracedSchedule, let observer {
      scheduler.traceObserver = { observer.traced($0) }
    }
    let state = State(capacity: calls.count)
    let expectations =
      spec.isExploration
      ? ExpectationLog { [scheduler = UncheckedBox(scheduler)] failure in
        scheduler.value.noteFailedExpectation(failure)
      } : nil
    if let expectations {
      scheduler.runsEachThread = { work in expectations.capturing(work) }
    }
    var ran = false
    let runSchedule = { [self] in
      ran = scheduler.runSchedule(index, rootOnMainThread: rootOnMainThread) { [self] root in
        runThreadZero(root, scheduler: scheduler, state: state)
      }
    }
    if let expectations { expectations.listening(during: runSchedule) } else { runSchedule() }
    guard ran else { return nil }
    if rootOnMainThread, scheduler.threads.first?.finished == false { parkedTheMainThread = true }
    return Outcome(
      index: index, record: state.record, returned: state.returned, trace: scheduler.trace,
      race: scheduler.race, deadlock: scheduler.deadlock, cutOff: scheduler.cutOff,
      findings: scheduler.findings, readsAfterLeaving: scheduler.readsAfterLeaving,
      error: state.error, failedExpectations: expectations?.recorded ?? [],
      unseenSynchronization: scheduler.unseenSynchronization,
      codeRun: scheduler.codeRun, tracedCode: scheduler.tracedCode,
      nameOfCell: { [scheduler] in scheduler.variables[$0]?.name })
  }

  /// What the controlled threads of one schedule record; only the running thread touches it.
  private final class State: @unchecked Sendable {
    // @unchecked Sendable: only the running controlled thread touches it; hand-offs order it.
    var record: InvocationRecord
    var returned: [Bool]
    var time: Int64 = 0
    var subject: Subject?
    var error: (call: Int, error: any Error)?

    init(capacity: Int) {
      record = InvocationRecord(capacity: capacity)
      returned = Array(repeating: false, count: capacity)
    }
  }

  private func runThreadZero(
    _ root: ControlledScheduler.ControlledThread, scheduler: ControlledScheduler, state: State
  ) {
    let gate = ControlledScheduler.Gate()
    var offset = scenario.initial.count
    var offsets: [Int] = []
    for column in scenario.columns {
      offsets.append(offset)
      offset += column.count
    }
    // The other columns' threads are made first, so that column k is always thread k.
    let others = scenario.columns.indices.dropFirst().map { column in
      // Its first step, up to its first call, only starts it: the gate is the history's. With
      // no call, it is the thread's end, which the join waits for.
      scheduler.spawn(
        name: "Thread \(column)", clock: VectorClock(), wait: .gate(gate),
        firstStep: scenario.columns[column].isEmpty ? .unknown : .call
      ) { [self] thread in
        observer?.threadStarts(column)
        thread.clock.join(gate.clock)
        SanitizerOrder.acquire(gate)
        for (position, call) in scenario.columns[column].enumerated() {
          perform(call, at: offsets[column] + position, on: thread, scheduler, state)
        }
      }
    }
    observer?.threadStarts(0)
    state.subject = scheduler.asSubject { spec.make() }
    for (index, call) in scenario.initial.enumerated() {
      perform(call, at: index, on: root, scheduler, state)
    }
    gate.clock = root.clock
    SanitizerOrder.release(gate)
    root.clock.tick(root.id)
    gate.isOpen = true
    if let column = scenario.columns.first {
      for (position, call) in column.enumerated() {
        perform(call, at: offsets[0] + position, on: root, scheduler, state)
      }
    }
    if !others.isEmpty {
      scheduler.point(root, waiting: .join(others.map(\.id)), next: .call)
      for other in others {
        root.clock.join(other.clock)
        SanitizerOrder.acquire(other, slot: 1)
      }
    }
    for (position, call) in scenario.post.enumerated() {
      perform(call, at: offset + position, on: root, scheduler, state)
    }
  }

  private func perform(
    _ call: PreparedScenario<Subject, Model>.Call, at index: Int,
    on thread: ControlledScheduler.ControlledThread, _ scheduler: ControlledScheduler,
    _ state: State
  ) {
    guard state.error == nil, let subject = state.subject else { return }
    scheduler.point(thread, next: .call)
    let description = callTexts[index]
    let line = scheduler.record(thread, description, isOperation: true)
    thread.activity += 1
    thread.synchronizedInActivity = false
    thread.call = index
    thread.queuesLeft = []
    thread.isBusy = true
    defer { thread.isBusy = false }
    state.time += 1
    state.record.callTimes[index] = state.time
    observer?.operationStarts(thread: thread.id, index: index)
    defer { observer?.operationEnds(thread: thread.id) }
    do {
      state.record.results[index] = try scheduler.asSubject {
        rc_sanitizer_call_begins(Int32(thread.id), Int64(index))
        defer { rc_sanitizer_call_ends() }
        return try call.perform(subject, call.arguments)
      }
    } catch {
      state.error = (index, error)
      return
    }
    // Other threads may run between the call's last step and its return, as they may under
    // stress: a write just before it returns can still meet another thread's access.
    scheduler.point(thread, next: .callReturns)
    state.time += 1
    state.record.returnTimes[index] = state.time
    state.returned[index] = true
    if !callReturnsVoid[index] {
      scheduler.amend(line, description + ": " + state.record.results[index].description)
    }
  }

  /// The reads of `outcome` that went on after their call left a queue another call's block entered, between calls that returned.
  func escapedReads(of outcome: Outcome) -> [EscapedRead] {
    let operations = outcome.record.history(of: scenario.scenario).operations
    return outcome.readsAfterLeaving.compactMap { read in
      guard outcome.returned[read.reader], outcome.returned[read.writer] else { return nil }
      return EscapedRead(
        queue: read.queue, reader: operations[read.reader], writer: operations[read.writer])
    }
  }

  /// The history of the calls that returned in `outcome`.
  func history(of outcome: Outcome) -> History {
    let complete = outcome.record.history(of: scenario.scenario)
    return History(
      operations: complete.operations.enumerated().filter { outcome.returned[$0.offset] }.map(
        \.element))
  }
}
