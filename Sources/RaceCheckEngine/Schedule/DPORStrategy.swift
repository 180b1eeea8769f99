/// Depth-first search of one schedule per class of equivalent interleavings: stateless dynamic partial-order reduction with sleep sets (Flanagan and Godefroid, 2005).
///
/// Two schedules are equivalent when they order every pair of conflicting steps alike
/// (``StepFootprint``): they reach the same state. Once a step has run, the search looks
/// back along the schedule for the earlier steps of other threads it conflicts with and that
/// nothing orders before it (happens-before, from program order and the conflicting steps),
/// and marks the point before each to try there a thread that begins the other order (source
/// sets, Abdulla et al., 2014). A search that runs out of marked points has run one schedule
/// of every class, so its pass covers every interleaving of the scenario, with no preemption
/// bound.
///
/// Sleep sets (Godefroid, 1996) keep it from running a class twice: once a thread was tried
/// at a point, the schedules through that point's later choices keep it asleep, not
/// choosing it, until a step conflicting with its next one runs. A schedule whose every
/// thread that can run is asleep only repeats classes already run: it runs on to its end,
/// as a real schedule must, but marks nothing more.
///
/// Stateless, as ``BoundedDFSStrategy``: each schedule replays the choices of the last one up
/// to the deepest point with a marked thread not yet tried, takes it, and then lets the
/// running thread go on whenever it can.
struct DPORStrategy: ScheduleStrategy {
  /// A point of the current schedule and what the search knows of it.
  private struct Node {
    var enabled: [Int]
    var chosen: Int
    /// The threads the search must try here.
    var backtrack: Set<Int>
    /// The threads it has tried here.
    var done: Set<Int>
    /// The threads asleep here, each with what its next step touched of the concurrency runtime's state where it was tried: every schedule choosing one of them here is equivalent to one already run or on the way.
    var asleep: [Int: [StepFootprint.Touch]]
    /// By thread, what the step each thread tried here touched of the concurrency runtime's state, once it ran (``StepFootprint/runtimeTouchesInAnySchedule``).
    var tried: [Int: [StepFootprint.Touch]] = [:]
  }

  /// A step the current schedule ran: its thread, what it touched, and which steps happen before it.
  private struct Step {
    var thread: Int
    var footprint: StepFootprint
    /// By thread, one more than the index of that thread's last step that happens before this one (or is it).
    var clock: [Int]
    /// The thread's clock before the step, to record it again once the step says what it touched unseen.
    var clockBefore: [Int]
  }

  private var nodes: [Node] = []
  private var position = 0
  private var steps: [Step] = []
  /// By thread, one more than the index of each thread's last step that happens before this thread's next one.
  private var threadClocks: [[Int]] = []
  /// By thread, what each thread's next step touched at the point of the last step: what a sleeping thread would do.
  private var lastFootprints: [StepFootprint?] = []
  /// Whether every thread that could run was asleep at some point of this schedule, which then marks nothing more.
  private var isSleepBlocked = false
  /// The threads the last step made, which start after all it did.
  private var madeByLastStep: [Int] = []

  /// Creates a search that starts with the schedule in which every thread runs on while it can.
  init() {}

  var readsFootprints: Bool { true }

  mutating func beginSchedule(_ index: Int) -> Bool {
    position = 0
    steps = []
    threadClocks = []
    lastFootprints = []
    isSleepBlocked = false
    madeByLastStep = []
    if index == 0 {
      nodes = []
      return true
    }
    while var last = nodes.popLast() {
      if let untried = last.backtrack.subtracting(last.done).subtracting(last.asleep.keys).min() {
        last.done.insert(untried)
        last.chosen = untried
        nodes.append(last)
        return true
      }
    }
    return false
  }

  mutating func threadCreated(_ thread: Int) {
    // A thread starts after everything its maker did; the first thread after nothing.
    let maker = steps.last.map { threadClocks[$0.thread] } ?? []
    while threadClocks.count <= thread { threadClocks.append([]) }
    threadClocks[thread] = maker
    madeByLastStep.append(thread)
  }

  mutating func choose(_ point: SchedulingPoint) -> Int {
    let goOn = point.enabled.contains(point.running) ? point.running : point.enabled[0]
    guard !isSleepBlocked else { return goOn }
    var asleep: [Int: [StepFootprint.Touch]] = [:]
    if position > 0 {
      // The step before this point has run and said what it touched unseen: its races are known.
      markRaces(ofStep: position - 1)
      noteTried(step: position - 1)
      asleep = asleepAfterLastStep()
    }
    let chosen: Int
    if position < nodes.count {
      let replayed = nodes[position].chosen
      // The code under test is deterministic given the schedule, so the replayed prefix fits.
      chosen = point.enabled.contains(replayed) ? replayed : point.enabled[0]
      nodes[position].asleep = asleep
    } else {
      let awake = point.enabled.filter { asleep[$0] == nil }
      guard let first = awake.first else {
        isSleepBlocked = true
        return goOn
      }
      chosen = awake.contains(point.running) ? point.running : first
      nodes.append(
        Node(
          enabled: point.enabled, chosen: chosen, backtrack: [chosen], done: [chosen],
          asleep: asleep))
    }
    lastFootprints = point.footprints
    let footprint = point.footprints.indices.contains(chosen) ? point.footprints[chosen] : nil
    // What the step touches unseen is known once it ran (``stepTouched(_:)``).
    run(chosen, (footprint ?? .unknown).ran(touching: []))
    position += 1
    return chosen
  }

  mutating func stepTouched(_ unseen: [StepFootprint.Touch]) {
    guard !isSleepBlocked, let last = steps.popLast() else { return }
    let made = madeByLastStep
    threadClocks[last.thread] = last.clockBefore
    run(last.thread, last.footprint.ran(touching: unseen))
    // The threads it made start after what it touched too.
    for thread in made { threadClocks[thread] = threadClocks[last.thread] }
    madeByLastStep = made
  }

  mutating func endSchedule(steps: Int, waiting: [StepFootprint?]) {
    // A thread that never ran again still races with what ran before it: a deadlock is a
    // state like any other, and another order may avoid it or reach another one.
    guard !isSleepBlocked else { return }
    if let last = self.steps.indices.last {
      markRaces(ofStep: last)
      noteTried(step: last)
    }
    for (thread, waiting) in waiting.enumerated() {
      guard let footprint = waiting?.unran else { continue }
      let before = clock(of: thread)
      markRaces(
        of: thread, footprint, before: self.steps.count, clockBefore: before,
        clockAfter: clock(after: before, of: thread, footprint))
    }
  }

  /// Notes what step `index`, which has run, touched of the runtime's state: what its thread's step touches wherever it sleeps.
  private mutating func noteTried(step index: Int) {
    nodes[index].tried[steps[index].thread] = steps[index].footprint.runtimeTouchesInAnySchedule
  }

  /// The threads asleep after the last step: those asleep or tried before it at its point, whose next step does not conflict with it.
  ///
  /// A thread's next step is what it names at its point now, with what it touched of the
  /// concurrency runtime's state where it was tried, which no point names: the code is
  /// deterministic, and the steps since then commute with it.
  private func asleepAfterLastStep() -> [Int: [StepFootprint.Touch]] {
    let node = nodes[position - 1]
    let step = steps[position - 1]
    var asleep: [Int: [StepFootprint.Touch]] = [:]
    for thread in node.done.union(node.asleep.keys) where thread != step.thread {
      guard lastFootprints.indices.contains(thread), let next = lastFootprints[thread] else {
        continue
      }
      // A thread tried whose step never said what it touched may touch anything.
      let runtime = node.tried[thread] ?? node.asleep[thread] ?? [.anyRuntimeState]
      if !next.alsoTouching(runtime).conflicts(with: step.footprint) { asleep[thread] = runtime }
    }
    return asleep
  }

  /// Marks the races of step `index`, which has run, with the steps before it.
  private mutating func markRaces(ofStep index: Int) {
    let step = steps[index]
    markRaces(
      of: step.thread, step.footprint, before: index, clockBefore: step.clockBefore,
      clockAfter: step.clock)
  }

  /// Marks, for each step before `end` that `thread`'s step touching `footprint` races with, a thread to try at the point before it.
  ///
  /// A racing step is an earlier step of another thread that races with it
  /// (``StepFootprint/races(with:)``), that nothing else orders before it (`clockBefore`,
  /// the thread's clock before the step), and that did not let the thread run. To
  /// run the two the other way round, the steps after the racing one that do not depend on
  /// it can run first, then this step (source sets, Abdulla et al., 2014): the point before
  /// the racing step must try a thread that begins that sequence, an initial of it, unless it
  /// tries one already. `clockAfter` says which earlier steps this one depends on. Where
  /// no initial could run at that point, it tries every thread that could.
  private mutating func markRaces(
    of thread: Int, _ footprint: StepFootprint, before end: Int, clockBefore: [Int],
    clockAfter: [Int]
  ) {
    for racing in 0..<end
    where steps[racing].thread != thread && steps[racing].footprint.races(with: footprint)
      && !happensBefore(racing, clockBefore) && !enabled(thread, byStep: racing)
    {
      let independent = (racing + 1..<end).filter { !happensBefore(racing, steps[$0].clock) }
      var initials: Set<Int> = []
      var started: Set<Int> = []
      for (offset, later) in independent.enumerated() {
        let (laterThread, clock) = (steps[later].thread, steps[later].clock)
        guard started.insert(laterThread).inserted else { continue }
        if !independent[..<offset].contains(where: { happensBefore($0, clock) }) {
          initials.insert(laterThread)
        }
      }
      if !started.contains(thread),
        !independent.contains(where: { happensBefore($0, clockAfter) })
      {
        initials.insert(thread)
      }
      let node = nodes[racing]
      let candidates = initials.intersection(node.enabled)
      if candidates.isEmpty {
        nodes[racing].backtrack.formUnion(node.enabled)
      } else if candidates.isDisjoint(with: node.backtrack) {
        nodes[racing].backtrack.insert(candidates.contains(thread) ? thread : candidates.min()!)
      }
    }
  }

  /// Whether step `index` let `thread` run: it could not before the step, and could after it.
  ///
  /// Such a step cannot be run after `thread`'s next one, whatever it touches: a release
  /// before the acquire it allowed, a block's end before the start it let in. The other
  /// order, where the thread goes first, begins before whatever had held it back (the other
  /// thread's acquire), and the search tries it there, as that step's race.
  private func enabled(_ thread: Int, byStep index: Int) -> Bool {
    guard !nodes[index].enabled.contains(thread) else { return false }
    return nodes.indices.contains(index + 1) && nodes[index + 1].enabled.contains(thread)
  }

  /// Records that `thread` ran a step touching `footprint`: it happens after the thread's earlier steps and after every earlier step it conflicts with.
  private mutating func run(_ thread: Int, _ footprint: StepFootprint) {
    let before = clock(of: thread)
    let clock = clock(after: before, of: thread, footprint)
    steps.append(Step(thread: thread, footprint: footprint, clock: clock, clockBefore: before))
    madeByLastStep = []
    while threadClocks.count <= thread { threadClocks.append([]) }
    threadClocks[thread] = clock
  }

  /// The clock of `thread`'s step touching `footprint`, run next after a clock of `before`: it happens after every step it conflicts with.
  private func clock(after before: [Int], of thread: Int, _ footprint: StepFootprint) -> [Int] {
    var clock = before
    for step in steps where step.thread != thread && step.footprint.conflicts(with: footprint) {
      join(&clock, step.clock)
    }
    while clock.count <= thread { clock.append(0) }
    clock[thread] = steps.count + 1
    return clock
  }

  private func clock(of thread: Int) -> [Int] {
    threadClocks.indices.contains(thread) ? threadClocks[thread] : []
  }

  /// Whether step `index` happens before the point whose clock is `clock`.
  private func happensBefore(_ index: Int, _ clock: [Int]) -> Bool {
    let thread = steps[index].thread
    return clock.indices.contains(thread) && clock[thread] > index
  }

  private func join(_ clock: inout [Int], _ other: [Int]) {
    while clock.count < other.count { clock.append(0) }
    for (thread, value) in other.enumerated() where value > clock[thread] {
      clock[thread] = value
    }
  }
}
