/// Depth-first search of one schedule per class of equivalent interleavings: stateless dynamic partial-order reduction (Flanagan and Godefroid, 2005).
///
/// Two schedules are equivalent when they order every pair of conflicting steps alike
/// (``StepFootprint``): they reach the same state. After each scheduling point the search
/// looks back along the schedule for the last step that conflicts with a thread's next
/// step and that nothing orders before it (happens-before, from program order and the
/// conflicting steps), and marks the point before that step to try the thread there. A
/// search that runs out of marked points has run one schedule of every class, so its pass
/// covers every interleaving of the scenario, with no preemption bound.
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
  }

  /// A step the current schedule ran: its thread, what it touched, and which steps happen before it.
  private struct Step {
    var thread: Int
    var footprint: StepFootprint
    /// By thread, one more than the index of that thread's last step that happens before this one (or is it).
    var clock: [Int]
  }

  private var nodes: [Node] = []
  private var position = 0
  private var steps: [Step] = []
  /// By thread, one more than the index of each thread's last step that happens before this thread's next one.
  private var threadClocks: [[Int]] = []

  /// Creates a search that starts with the schedule in which every thread runs on while it can.
  init() {}

  var readsFootprints: Bool { true }

  mutating func beginSchedule(_ index: Int) -> Bool {
    position = 0
    steps = []
    threadClocks = []
    if index == 0 {
      nodes = []
      return true
    }
    while var last = nodes.popLast() {
      if let untried = last.backtrack.subtracting(last.done).min() {
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
  }

  mutating func choose(_ point: SchedulingPoint) -> Int {
    markRaces(of: point.footprints)
    let chosen: Int
    if position < nodes.count {
      let replayed = nodes[position].chosen
      // The code under test is deterministic given the schedule, so the replayed prefix fits.
      chosen = point.enabled.contains(replayed) ? replayed : point.enabled[0]
    } else {
      chosen = point.enabled.contains(point.running) ? point.running : point.enabled[0]
      nodes.append(
        Node(enabled: point.enabled, chosen: chosen, backtrack: [chosen], done: [chosen]))
    }
    let footprint = point.footprints.indices.contains(chosen) ? point.footprints[chosen] : nil
    run(chosen, footprint ?? .unknown)
    position += 1
    return chosen
  }

  mutating func endSchedule(steps: Int, waiting: [StepFootprint?]) {
    // A thread that never ran again still races with what ran before it: a deadlock is a
    // state like any other, and another order may avoid it or reach another one.
    markRaces(of: waiting)
  }

  /// For each thread's next step, marks the point before the last step it races with.
  ///
  /// The racing step is the last earlier step of another thread that conflicts with it and
  /// does not happen before it. At the point before that step, the thread itself is tried
  /// if it could run there; else a thread whose later step leads to it, or, failing one,
  /// every thread that could run.
  private mutating func markRaces(of footprints: [StepFootprint?]) {
    for (thread, footprint) in footprints.enumerated() {
      guard let footprint else { continue }
      let clock = clock(of: thread)
      guard
        let racing = steps.indices.reversed().first(where: { index in
          let step = steps[index]
          return step.thread != thread && step.footprint.conflicts(with: footprint)
            && !happensBefore(index, clock)
        })
      else { continue }
      let before = nodes[racing]
      if before.enabled.contains(thread) {
        nodes[racing].backtrack.insert(thread)
      } else if let leading = before.enabled.first(where: { candidate in
        steps.indices.dropFirst(racing + 1).contains { later in
          steps[later].thread == candidate && happensBefore(later, clock)
        }
      }) {
        nodes[racing].backtrack.insert(leading)
      } else {
        nodes[racing].backtrack.formUnion(before.enabled)
      }
    }
  }

  /// Records that `thread` ran a step touching `footprint`: it happens after the thread's earlier steps and after every earlier step it conflicts with.
  private mutating func run(_ thread: Int, _ footprint: StepFootprint) {
    var clock = clock(of: thread)
    for step in steps where step.thread != thread && step.footprint.conflicts(with: footprint) {
      join(&clock, step.clock)
    }
    let index = steps.count
    while clock.count <= thread { clock.append(0) }
    clock[thread] = index + 1
    steps.append(Step(thread: thread, footprint: footprint, clock: clock))
    while threadClocks.count <= thread { threadClocks.append([]) }
    threadClocks[thread] = clock
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
