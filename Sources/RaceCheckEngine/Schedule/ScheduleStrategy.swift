/// Picks the thread that runs at each scheduling point of one schedule.
protocol ScheduleStrategy {
  /// Whether the strategy reads what each thread's next step touches (``SchedulingPoint/footprints``); the scheduler fills them in only then.
  var readsFootprints: Bool { get }
  /// Prepares schedule number `index`; false when there is none left to try.
  mutating func beginSchedule(_ index: Int) -> Bool
  /// Called when a controlled thread is created, in creation order, during the step of the thread that made it.
  mutating func threadCreated(_ thread: Int)
  /// The thread to run at `point`, one of its enabled threads.
  mutating func choose(_ point: SchedulingPoint) -> Int
  /// Called, before the next point is chosen or the schedule ends, when the step just run touched `unseen` with no scheduling point of its own (a lock it released, an actor it took), when the strategy reads footprints.
  mutating func stepTouched(_ unseen: [StepFootprint.Touch])
  /// Called when the schedule ends after `steps` scheduling points; `waiting` holds, by thread, the next step of each thread that never ran again (a deadlock, a cut-off), nil for a finished one, when the strategy reads footprints.
  mutating func endSchedule(steps: Int, waiting: [StepFootprint?])
}

extension ScheduleStrategy {
  var readsFootprints: Bool { false }

  mutating func stepTouched(_ unseen: [StepFootprint.Touch]) {}
}

/// Chooses uniformly among the threads that can run; schedule `index` draws from its own derived seed.
struct RandomWalkStrategy: ScheduleStrategy {
  let seed: UInt64
  private var random = SplitMix64(seed: 0)

  init(seed: UInt64) {
    self.seed = seed
  }

  mutating func beginSchedule(_ index: Int) -> Bool {
    random = SplitMix64(seed: SplitMix64.derive(seed, UInt64(index)))
    return true
  }

  mutating func threadCreated(_ thread: Int) {}

  mutating func choose(_ point: SchedulingPoint) -> Int {
    point.enabled[random.below(point.enabled.count)]
  }

  mutating func endSchedule(steps: Int, waiting: [StepFootprint?]) {}
}

/// Probabilistic concurrency testing (Burckhardt et al.): the highest-priority thread runs; at `depth - 1` random steps the running thread drops to the lowest priority.
struct PCTStrategy: ScheduleStrategy {
  let seed: UInt64
  let depth: Int
  private var random = SplitMix64(seed: 0)
  private var priorities: [Int: Int] = [:]
  private var changePoints: [Int: Int] = [:]
  /// The longest schedule seen so far, from which change points are drawn.
  private var expectedSteps = 32

  init(seed: UInt64, depth: Int) {
    self.seed = seed
    self.depth = max(1, depth)
  }

  mutating func beginSchedule(_ index: Int) -> Bool {
    random = SplitMix64(seed: SplitMix64.derive(seed, UInt64(index)))
    priorities = [:]
    changePoints = [:]
    for point in 0..<(depth - 1) {
      changePoints[1 + random.below(expectedSteps)] = depth - 1 - point
    }
    return true
  }

  mutating func threadCreated(_ thread: Int) {
    // Initial priorities lie above every change point's, distinct and in random order.
    var priority = depth + random.below(1_000_000)
    while priorities.values.contains(priority) { priority += 1 }
    priorities[thread] = priority
  }

  mutating func choose(_ point: SchedulingPoint) -> Int {
    if let lowered = changePoints[point.step] { priorities[point.running] = lowered }
    return point.enabled.max { priorities[$0, default: 0] < priorities[$1, default: 0] }!
  }

  mutating func endSchedule(steps: Int, waiting: [StepFootprint?]) {
    expectedSteps = max(expectedSteps, steps)
  }
}

/// Depth-first search of every schedule with at most `bound` preemptions, one schedule per call.
///
/// Stateless: each schedule replays the choices of the last one up to the deepest point
/// with an untried alternative, takes it, and then lets the running thread go on whenever it
/// can. A preemption is a switch away from a thread that could have gone on.
struct BoundedDFSStrategy: ScheduleStrategy {
  private struct Node {
    var enabled: [Int]
    var running: Int
    var chosen: Int
    var tried: Set<Int>
    var preemptionsBefore: Int
  }

  let bound: Int
  private var nodes: [Node] = []
  private var position = 0
  private var preemptions = 0

  init(bound: Int) {
    self.bound = bound
  }

  mutating func beginSchedule(_ index: Int) -> Bool {
    position = 0
    preemptions = 0
    if index == 0 {
      nodes = []
      return true
    }
    while var last = nodes.popLast() {
      let canContinue = last.enabled.contains(last.running)
      if let alternative = last.enabled.first(where: { candidate in
        !last.tried.contains(candidate)
          && last.preemptionsBefore + (canContinue && candidate != last.running ? 1 : 0) <= bound
      }) {
        last.tried.insert(alternative)
        last.chosen = alternative
        nodes.append(last)
        return true
      }
    }
    return false
  }

  mutating func threadCreated(_ thread: Int) {}

  mutating func choose(_ point: SchedulingPoint) -> Int {
    let (enabled, running) = (point.enabled, point.running)
    defer { position += 1 }
    let canContinue = enabled.contains(running)
    if position < nodes.count {
      let chosen = nodes[position].chosen
      // The code under test is deterministic given the schedule, so the replayed prefix fits.
      let pick = enabled.contains(chosen) ? chosen : enabled[0]
      if canContinue && pick != running { preemptions += 1 }
      return pick
    }
    let pick = canContinue ? running : enabled[0]
    nodes.append(
      Node(
        enabled: enabled, running: running, chosen: pick, tried: [pick],
        preemptionsBefore: preemptions))
    return pick
  }

  mutating func endSchedule(steps: Int, waiting: [StepFootprint?]) {}
}

/// Replays a recorded schedule: the thread chosen at each scheduling point, in order.
struct ReplayStrategy: ScheduleStrategy {
  let choices: [Int]
  /// Where the replay left the recorded schedule, if it did.
  private(set) var divergence: String?

  init(choices: [Int]) {
    self.choices = choices
  }

  mutating func beginSchedule(_ index: Int) -> Bool { index == 0 }

  mutating func threadCreated(_ thread: Int) {}

  mutating func choose(_ point: SchedulingPoint) -> Int {
    let (enabled, running, step) = (point.enabled, point.running, point.step)
    guard step < choices.count else {
      if divergence == nil {
        divergence =
          "expected the schedule to end after \(choices.count) scheduling points, got one more on thread \(running)"
      }
      return enabled.contains(running) ? running : enabled[0]
    }
    let expected = choices[step]
    guard enabled.contains(expected) else {
      if divergence == nil {
        divergence =
          "expected a scheduling point of thread \(expected) at step \(step + 1), got one of thread \(running) with only \(enabled.map(String.init).joined(separator: ", ")) able to run"
      }
      return enabled.contains(running) ? running : enabled[0]
    }
    return expected
  }

  mutating func endSchedule(steps: Int, waiting: [StepFootprint?]) {
    if steps < choices.count, divergence == nil {
      divergence =
        "expected \(choices.count) scheduling points, got \(steps): the code took a different path"
    }
  }
}
