/// What a controlled thread's next step touches, as partial-order reduction sees it.
///
/// Two steps of different threads conflict when they touch the same object and at least
/// one of them changes it: run in the other order, they may leave another state. Steps
/// that do not conflict commute, so a search needs only one of their orders. A step whose
/// effect the scheduler cannot name is ``unknown`` and conflicts with every step, which
/// costs schedules but never hides one.
struct StepFootprint: Hashable, Sendable {
  /// The one thing a step names as touched.
  enum Touch: Hashable, Sendable {
    /// A read of the memory at this address: a cell, a stored property.
    case read(UInt)
    /// A write or an update of the memory at this address.
    case write(UInt)
    /// A primitive at this address, whose state every step on it changes: a lock, a queue's order of blocks, a semaphore, a group, a condition, an atomic, a Mutex's word.
    case primitive(UInt)
    /// A block's start or end on the queue at this address; `alone` for a block that runs alone on it, as a serial queue's blocks and a concurrent queue's barriers do.
    ///
    /// Where one of two blocks runs alone, the start and the end of the one conflict with
    /// the start and the end of the other, so that the later block's steps happen after the
    /// earlier block's start, and after its end once the later one has started. Blocks that
    /// may run side by side order nothing. The two orders of such a pair are never both
    /// possible: which block a queue admits when follows from the order the blocks were
    /// enqueued in (``primitive(_:)`` steps, which do race). So a search never reverses
    /// them (``races(with:)``).
    case admission(UInt, alone: Bool)
    /// State the Swift concurrency runtime keeps by atomics of its own; `writes` for a change.
    case runtime(RuntimeState, writes: Bool)
    /// Any executor's state: what a step touches that runs a job the runtime made for an executor, which takes or queues on an actor with no call the interposer sees.
    case anyExecutor
    /// Any of the runtime's state: what a step running Swift concurrency code may touch before it says what it did.
    case anyRuntimeState
    /// An operation's call, recorded in the history.
    case call
    /// An operation's return, recorded in the history.
    ///
    /// A check judges a history by its results and by which operation returned before
    /// which other one was called, so a return conflicts with another thread's call only:
    /// two calls, or two returns, in either order leave the same history.
    case `return`
  }

  /// State of the Swift concurrency runtime that a step changes or reads with no scheduling point.
  ///
  /// The runtime takes an actor, gives it up, cancels a task and collects a group's results
  /// by atomics of its own. The interposer notes the calls that do (`swift_task_switch`,
  /// `Task.cancel()`, `Task.isCancelled`, a group's child made), and the scheduler reads which
  /// executor a thread runs on at each of its points.
  enum RuntimeState: Hashable, Sendable {
    /// The jobs an actor, or another serial executor, runs, by its identity, in the order tasks come to it: a task that switches to it takes it or queues on it.
    case executor(UInt)
    /// An actor's turn, by its identity: the thread that runs its jobs takes it, or gives it up.
    ///
    /// Like a serial queue's admissions (``Touch/admission(_:alone:)``), two turns are
    /// ordered, the later after the earlier, but a search never reverses them: which job the
    /// actor runs next follows from the order its jobs came to it (``executor(_:)``), which
    /// races.
    case actorTurn(UInt)
    /// Whether tasks are cancelled: one state for every task, since a cancel reaches a task's children too.
    case cancellation
    /// The results of the task group at this address, in the order its children finish.
    case group(UInt)
  }

  /// What the step names as touched.
  private(set) var touches: [Touch]
  /// What the step may touch with no scheduling point of its own: the locks the thread holds, which it may release, and the concurrency runtime's state.
  ///
  /// Conflicts count them; once the step ran, the scheduler says what it did touch
  /// (``ScheduleStrategy/stepTouched(_:)``), and only that stays.
  private(set) var mayTouchUnseen: [Touch] = []
  /// Whether the scheduler cannot tell what the step touches.
  private(set) var isUnknown: Bool

  private init(_ touches: [Touch], isUnknown: Bool = false) {
    self.touches = touches
    self.isUnknown = isUnknown
  }

  /// A step that reads the memory at `address`.
  static func reads(_ address: UInt) -> StepFootprint { .init([.read(address)]) }

  /// A step that writes or updates the memory at `address`.
  static func writes(_ address: UInt) -> StepFootprint { .init([.write(address)]) }

  /// A step on the primitive at `address`.
  static func primitive(_ address: UInt) -> StepFootprint { .init([.primitive(address)]) }

  /// A step that records an operation's call.
  static let call = StepFootprint([.call])

  /// A step that records an operation's return, which ends it.
  ///
  /// The end of an operation or of a queue block changes no race partial-order reduction
  /// reports, judged by happens-before alone (``ControlledScheduler/checkRace(on:by:_:step:)``),
  /// so it conflicts with no access.
  static let callReturns = StepFootprint([.return])

  /// A step that enqueues a block on the queue at `address`: the order of enqueues is the order the queue runs its blocks in.
  static func enqueues(_ queue: UInt) -> StepFootprint { .primitive(queue) }

  /// A step that enqueues a block on the queue at `address` and may start it at once, as `sync` does on an idle queue; `alone` for a block that runs alone on it.
  static func enqueuesAndMayStart(_ queue: UInt, alone: Bool) -> StepFootprint {
    .init([.primitive(queue), .admission(queue, alone: alone)])
  }

  /// A step that starts or ends a block of the queue at `address`, `alone` for one that runs alone on it: an end lets the blocks behind it in.
  static func admission(_ queue: UInt, alone: Bool) -> StepFootprint {
    .init([.admission(queue, alone: alone)])
  }

  /// A step that touches nothing another thread can see: a thread's start, or a `pthread_create`, which makes a thread no other step knows of yet.
  static let threadLocal = StepFootprint([])

  /// A step whose effect the scheduler cannot name: it conflicts with every step.
  static let unknown = StepFootprint([], isUnknown: true)

  /// This footprint, by a thread holding the locks at `addresses`, any of which the step may release without a scheduling point first.
  func holding(locks addresses: [UInt]) -> StepFootprint {
    guard !addresses.isEmpty, !isUnknown else { return self }
    var footprint = self
    footprint.mayTouchUnseen = addresses.map(Touch.primitive)
    return footprint
  }

  /// What the step touched of the concurrency runtime's state, as it holds in any schedule: an actor or a group as any actor or any state, since another schedule allocates them at other addresses.
  var runtimeTouchesInAnySchedule: [Touch] {
    var found: [Touch] = []
    for touch in touches {
      let stable: Touch
      switch touch {
      case .runtime(.executor, _), .runtime(.actorTurn, _), .anyExecutor: stable = .anyExecutor
      case .runtime(.group, _), .anyRuntimeState: stable = .anyRuntimeState
      case .runtime(.cancellation, _): stable = touch
      default: continue
      }
      if !found.contains(stable) { found.append(stable) }
    }
    return found
  }

  /// This footprint, touching `more` as well.
  func alsoTouching(_ more: [Touch]) -> StepFootprint {
    guard !more.isEmpty, !isUnknown else { return self }
    var footprint = self
    footprint.touches += more
    return footprint
  }

  /// This footprint, for a step that never ran: it may also touch any of the concurrency runtime's state, which only a step that ran says it did.
  var unran: StepFootprint {
    guard !isUnknown else { return self }
    var footprint = self
    footprint.mayTouchUnseen.append(.anyRuntimeState)
    return footprint
  }

  /// The footprint of the step once it ran, having touched `unseen` with no scheduling point of its own, and nothing else it might have.
  func ran(touching unseen: [Touch]) -> StepFootprint {
    var footprint = self
    footprint.mayTouchUnseen = []
    footprint.touches += unseen
    return footprint
  }

  /// Whether this step and `other`, made by different threads, are ordered: the later one happens after the earlier.
  ///
  /// They may leave another state in the other order, or, for a queue's starts and ends,
  /// the later one could not have run before the earlier one.
  func conflicts(with other: StepFootprint) -> Bool {
    touchesConflict(with: other, admissionsCount: true)
  }

  /// Whether this step and `other`, made by different threads, conflict in a way a search must try in the other order too.
  func races(with other: StepFootprint) -> Bool {
    touchesConflict(with: other, admissionsCount: false)
  }

  private func touchesConflict(with other: StepFootprint, admissionsCount: Bool) -> Bool {
    if isUnknown || other.isUnknown { return true }
    let conflict = { (first: [Touch], second: [Touch]) in
      first.contains { touch in
        second.contains { Self.conflict(touch, $0, admissionsCount: admissionsCount) }
      }
    }
    return conflict(touches, other.touches) || conflict(touches, other.mayTouchUnseen)
      || conflict(mayTouchUnseen, other.touches) || conflict(mayTouchUnseen, other.mayTouchUnseen)
  }

  private static func conflict(_ first: Touch, _ second: Touch, admissionsCount: Bool) -> Bool {
    switch (first, second) {
    case (.read(let one), .write(let other)), (.write(let one), .read(let other)),
      (.write(let one), .write(let other)), (.primitive(let one), .primitive(let other)):
      return one == other
    case (.admission(let one, let oneAlone), .admission(let other, let otherAlone)):
      return admissionsCount && one == other && (oneAlone || otherAlone)
    case (.runtime(.actorTurn(let one), _), .runtime(.actorTurn(let other), _)):
      return admissionsCount && one == other
    case (.runtime(let one, let oneWrites), .runtime(let other, let otherWrites)):
      return one == other && (oneWrites || otherWrites)
    case (.anyExecutor, .runtime(.executor, _)), (.runtime(.executor, _), .anyExecutor),
      (.anyExecutor, .runtime(.actorTurn, _)), (.runtime(.actorTurn, _), .anyExecutor),
      (.anyExecutor, .anyExecutor):
      return true
    case (.anyRuntimeState, .runtime), (.runtime, .anyRuntimeState),
      (.anyRuntimeState, .anyExecutor),
      (.anyExecutor, .anyRuntimeState), (.anyRuntimeState, .anyRuntimeState):
      return true
    case (.call, .return), (.return, .call):
      return true
    default:
      return false
    }
  }
}

/// One scheduling point, as a strategy sees it.
struct SchedulingPoint {
  /// The threads that can run, sorted; never empty.
  var enabled: [Int]
  /// The thread that reached the point; it may have finished or be waiting.
  var running: Int
  /// The number of scheduling points before this one in the schedule.
  var step: Int
  /// By thread id, what each unfinished thread's next step touches; nil for a finished thread.
  var footprints: [StepFootprint?]

  /// Creates a point; strategies that do not reduce ignore `footprints`.
  init(enabled: [Int], running: Int, step: Int, footprints: [StepFootprint?] = []) {
    self.enabled = enabled
    self.running = running
    self.step = step
    self.footprints = footprints
  }
}
