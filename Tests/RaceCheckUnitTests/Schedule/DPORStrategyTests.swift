import RaceCheckHistory
import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// Partial-order reduction reaches every final state the unreduced search reaches, with fewer schedules: checked on generated programs of two and three threads run by a simulator, with no threads.
  ///
  /// A final state holds the variables, the registers and a deadlock, and, for programs of
  /// operations, the history's real-time order and whether two accesses of operations raced,
  /// nothing ordering them, as the scheduler judges races under the reduction. The full
  /// search judges them as the scheduler does under it, only while the earlier access's
  /// operation still runs: the two must find a race in the same programs.
  @Suite struct DPORStrategyTests {
    @Test(arguments: 0..<4)
    func theReducedSearchReachesExactlyTheFinalStatesOfTheFullOne(batch: UInt64) {
      expectTheSameFinalStates(batch: batch, SimulatedProgram.generated)
    }

    @Test(arguments: 0..<4)
    func theReducedSearchReachesExactlyTheHistoriesAndRacesOfTheFullOne(batch: UInt64) {
      // Fewer programs: each unreduced search of operations runs about ten thousand schedules.
      expectTheSameFinalStates(batch: batch, programs: 15, SimulatedProgram.generatedOperations)
    }

    private func expectTheSameFinalStates(
      batch: UInt64, programs: Int = 50, _ generate: (UInt64) -> SimulatedProgram
    ) {
      var reduced = 0
      var full = 0
      for index in 0..<programs {
        let seed = batch * 1_000 + UInt64(index)
        let program = generate(seed)
        let exhaustive = program.finalStates(
          under: BoundedDFSStrategy(bound: SimulatedProgram.unboundedPreemptions))
        let dpor = program.finalStates(under: DPORStrategy())
        #expect(dpor.states == exhaustive.states, "seed \(seed):\n\(program)")
        #expect(
          dpor.states.contains { $0.raced } == exhaustive.racedWhileRunning,
          "seed \(seed):\n\(program)")
        #expect(dpor.schedules <= exhaustive.schedules, "seed \(seed):\n\(program)")
        reduced += dpor.schedules
        full += exhaustive.schedules
      }
      // Not a bound on each program (some have no independent steps), but on the batch.
      #expect(reduced * 2 < full, "\(reduced) reduced schedules against \(full)")
    }

    @Test func independentThreadsNeedOneSchedule() {
      let program = SimulatedProgram(threads: [
        [.write(0), .read(0), .write(0)],
        [.write(1), .read(1)],
        [.lock(0), .write(2), .unlock(0)],
      ])
      #expect(program.finalStates(under: DPORStrategy()).schedules == 1)
      #expect(
        program.finalStates(under: BoundedDFSStrategy(bound: SimulatedProgram.unboundedPreemptions))
          .schedules > 100)
    }

    @Test func aLockOrderInversionDeadlocksInOneOfTheReducedSchedules() {
      let program = SimulatedProgram(threads: [
        [.lock(0), .lock(1), .write(0), .unlock(1), .unlock(0)],
        [.lock(1), .lock(0), .write(0), .unlock(0), .unlock(1)],
      ])
      let states = program.finalStates(under: DPORStrategy()).states
      #expect(states.contains { $0.deadlocked })
      #expect(states.contains { !$0.deadlocked })
    }

    @Test func aLostUpdateIsReached() {
      // Two unlocked read-then-write increments: one order loses an update.
      let program = SimulatedProgram(threads: [
        [.read(0), .increment(0)], [.read(0), .increment(0)],
      ])
      let results = Set(program.finalStates(under: DPORStrategy()).states.map { $0.variables[0] })
      #expect(results == [1, 2])
    }

    @Test func callsAndReturnsOrderOnlyWhereOneOperationEndsBeforeAnotherStarts() {
      // Two operations touching nothing: three real-time orders (either first, or overlapping),
      // from 6 interleavings, in as many schedules as orders.
      let program = SimulatedProgram(threads: [[.call, .return], [.call, .return]])
      let reduced = program.finalStates(under: DPORStrategy())
      #expect(Set(reduced.states.map(\.precedence)) == [[], [[0, 10]], [[10, 0]]])
      #expect(reduced.schedules == 3)
    }

    @Test func aRaceIsJudgedByHappensBeforeWhereverTheEarlierOperationEnds() {
      // Thread 1's read races thread 0's write whether or not thread 0 has returned by then;
      // the lock orders them in the other program.
      let unordered = SimulatedProgram(threads: [
        [.call, .write(0), .return], [.call, .read(0), .return],
      ])
      let reduced = unordered.finalStates(under: DPORStrategy())
      #expect(reduced.states.allSatisfy { $0.raced })
      #expect(reduced.racedWhileRunning)
      let locked = SimulatedProgram(threads: [
        [.call, .lock(0), .write(0), .unlockWithinStep(0), .return],
        [.call, .lock(0), .read(0), .unlockWithinStep(0), .return],
      ])
      #expect(!locked.finalStates(under: DPORStrategy()).states.contains { $0.raced })
    }

    @Test func aLockReleasedWithinAStepStillOrdersTheStepsAfterIt() {
      // The unlocks have no step of their own, as a lock's release has none under the scheduler.
      let program = SimulatedProgram(threads: [
        [.lock(0), .increment(0), .unlockWithinStep(0), .read(1)],
        [.probe(0), .lock(0), .read(0), .unlockWithinStep(0), .write(1)],
      ])
      let full = program.finalStates(
        under: BoundedDFSStrategy(bound: SimulatedProgram.unboundedPreemptions))
      let reduced = program.finalStates(under: DPORStrategy())
      #expect(reduced.states == full.states)
      #expect(reduced.schedules < full.schedules)
    }
  }
}

/// A tiny concurrent program of reads, writes, locks and operations, run one step at a time under a strategy, as the scheduler runs real threads.
struct SimulatedProgram: CustomStringConvertible {
  enum Instruction: Hashable, CustomStringConvertible {
    /// Loads the variable into the thread's register.
    case read(Int)
    /// Stores a value made of the thread's id and register, so that what was read shows.
    case write(Int)
    /// Stores the thread's register plus one.
    case increment(Int)
    case lock(Int)
    case unlock(Int)
    /// Releases the lock at the end of the step before, with no step of its own, as the scheduler's locks are released.
    case unlockWithinStep(Int)
    /// Tries the lock and lets it go at once: the register holds whether it was free.
    case probe(Int)
    /// Starts an operation, recording its call in the history.
    case call
    /// Ends the running operation, recording its return.
    case `return`

    var description: String {
      switch self {
      case .read(let variable): "read x\(variable)"
      case .write(let variable): "write x\(variable)"
      case .increment(let variable): "x\(variable) = r + 1"
      case .lock(let lock): "lock l\(lock)"
      case .unlock(let lock): "unlock l\(lock)"
      case .unlockWithinStep(let lock): "(unlock l\(lock))"
      case .probe(let lock): "probe l\(lock)"
      case .call: "call"
      case .return: "return"
      }
    }

    var accessed: (variable: Int, writes: Bool)? {
      switch self {
      case .read(let variable): (variable, false)
      case .write(let variable), .increment(let variable): (variable, true)
      default: nil
      }
    }
  }

  /// Where a program ended.
  struct FinalState: Hashable {
    var variables: [Int]
    var registers: [Int]
    var deadlocked: Bool
    /// Which operation returned before which other one was called; thread 1's second operation is 11.
    var precedence: Set<[Int]>
    /// Whether an access of an operation met an earlier one of another thread's operation, nothing ordering them.
    var raced: Bool
  }

  static let unboundedPreemptions = 1_000
  static let variableCount = 3

  let threads: [[Instruction]]

  var description: String {
    threads.enumerated().map {
      "thread \($0.offset): " + $0.element.map(\.description).joined(separator: "; ")
    }
    .joined(separator: "\n")
  }

  /// A program of two or three threads, each of a few accesses to three variables, some inside one or two of two locks.
  static func generated(seed: UInt64) -> SimulatedProgram {
    var random = SplitMix64(seed: seed)
    let threadCount = 2 + random.below(2)
    let threads = (0..<threadCount).map { _ in
      var instructions: [Instruction] = []
      for _ in 0..<(1 + random.below(threadCount == 2 ? 3 : 2)) {
        let access = randomAccess(&random)
        switch random.below(5) {
        case 0:
          let lock = random.below(2)
          instructions += [.lock(lock), access, unlock(lock, &random)]
        case 1:
          // Nested, in either order: two threads may take them in opposite orders.
          let outer = random.below(2)
          instructions += [
            .lock(outer), .lock(1 - outer), access, unlock(1 - outer, &random),
            unlock(outer, &random),
          ]
        case 2:
          instructions += [.probe(random.below(2)), access]
        default:
          instructions.append(access)
        }
      }
      return instructions
    }
    return SimulatedProgram(threads: threads)
  }

  /// A program of two threads of one or two operations, or three of one, each operation one access, or two for two threads of one, some under a lock.
  static func generatedOperations(seed: UInt64) -> SimulatedProgram {
    var random = SplitMix64(seed: seed)
    let threadCount = 2 + random.below(2)
    let threads = (0..<threadCount).map { _ in
      var instructions: [Instruction] = []
      let operations = threadCount == 2 ? 1 + random.below(2) : 1
      for _ in 0..<operations {
        instructions.append(.call)
        for _ in 0..<(threadCount == 2 && operations == 1 ? 1 + random.below(2) : 1) {
          let access = randomAccess(&random)
          if random.below(2) == 0 {
            let lock = random.below(2)
            instructions += [.lock(lock), access, unlock(lock, &random)]
          } else {
            instructions.append(access)
          }
        }
        instructions.append(.return)
      }
      return instructions
    }
    return SimulatedProgram(threads: threads)
  }

  private static func randomAccess(_ random: inout SplitMix64) -> Instruction {
    switch random.below(3) {
    case 0: .read(random.below(variableCount))
    case 1: .write(random.below(variableCount))
    default: .increment(random.below(variableCount))
    }
  }

  /// An unlock, as a step of its own or, half the time, at the end of the step before.
  private static func unlock(_ lock: Int, _ random: inout SplitMix64) -> Instruction {
    random.below(2) == 0 ? .unlock(lock) : .unlockWithinStep(lock)
  }

  /// Runs every schedule `strategy` gives and collects where they ended, and whether one showed a race while the earlier access's operation still ran.
  func finalStates(under strategy: some ScheduleStrategy) -> (
    states: Set<FinalState>, schedules: Int, racedWhileRunning: Bool
  ) {
    var strategy = strategy
    var states: Set<FinalState> = []
    var schedules = 0
    var racedWhileRunning = false
    while schedules < 1_000_000, strategy.beginSchedule(schedules) {
      var run = Run(program: self)
      states.insert(run.finish(&strategy))
      racedWhileRunning = racedWhileRunning || run.racedWhileRunning
      schedules += 1
    }
    return (states, schedules, racedWhileRunning)
  }

  /// One schedule's run, with the scheduler's account of races: vector clocks from the locks, and the operations running.
  private struct Run {
    /// An access a later one may race with.
    struct Access {
      var thread: Int
      var epoch: Int
      var operation: Int
    }

    let program: SimulatedProgram
    var positions: [Int]
    var registers: [Int]
    var variables = Array(repeating: 0, count: SimulatedProgram.variableCount)
    var owners: [Int: Int] = [:]
    var held: [[Int]]
    var clocks: [[Int]]
    var lockClocks: [Int: [Int]] = [:]
    var lastWrites: [Int: Access] = [:]
    var reads: [Int: [Int: Access]] = [:]
    /// By thread, the number of its running operation, if one runs.
    var running: [Int?]
    var operationsStarted: [Int]
    var returned: [Int] = []
    var precedence: Set<[Int]> = []
    var raced = false
    var racedWhileRunning = false

    init(program: SimulatedProgram) {
      self.program = program
      let count = program.threads.count
      positions = Array(repeating: 0, count: count)
      registers = Array(repeating: 0, count: count)
      held = Array(repeating: [], count: count)
      clocks = (0..<count).map { thread in (0..<count).map { $0 == thread ? 1 : 0 } }
      running = Array(repeating: nil, count: count)
      operationsStarted = Array(repeating: 0, count: count)
    }

    mutating func finish(_ strategy: inout some ScheduleStrategy) -> FinalState {
      let threads = program.threads
      for thread in threads.indices { strategy.threadCreated(thread) }
      var last = 0
      var step = 0
      while true {
        let unfinished = threads.indices.filter { positions[$0] < threads[$0].count }
        let footprints = threads.indices.map { thread in
          positions[thread] < threads[thread].count ? footprint(of: thread) : nil
        }
        let enabled = unfinished.filter { thread in
          if case .lock(let lock) = threads[thread][positions[thread]] {
            return owners[lock] == nil
          }
          return true
        }
        if enabled.isEmpty {
          strategy.endSchedule(steps: step, waiting: footprints)
          return state(deadlocked: !unfinished.isEmpty)
        }
        let chosen = strategy.choose(
          SchedulingPoint(enabled: enabled, running: last, step: step, footprints: footprints))
        execute(threads[chosen][positions[chosen]], by: chosen)
        positions[chosen] += 1
        var released: [UInt] = []
        while positions[chosen] < threads[chosen].count,
          case .unlockWithinStep(let lock) = threads[chosen][positions[chosen]]
        {
          execute(.unlock(lock), by: chosen)
          released.append(Self.address(ofLock: lock))
          positions[chosen] += 1
        }
        if !released.isEmpty { strategy.stepReleased(released) }
        last = chosen
        step += 1
      }
    }

    private static func address(ofLock lock: Int) -> UInt { UInt(200 + lock) }

    private static func address(ofVariable variable: Int) -> UInt { UInt(100 + variable) }

    private func footprint(of thread: Int) -> StepFootprint {
      let next: StepFootprint =
        switch program.threads[thread][positions[thread]] {
        case .read(let variable): .reads(Self.address(ofVariable: variable))
        case .write(let variable), .increment(let variable):
          .writes(Self.address(ofVariable: variable))
        case .lock(let lock), .unlock(let lock), .unlockWithinStep(let lock), .probe(let lock):
          .primitive(Self.address(ofLock: lock))
        case .call: .call
        case .return: .callReturns
        }
      return next.holding(locks: held[thread].map(Self.address(ofLock:)))
    }

    private mutating func execute(_ instruction: Instruction, by thread: Int) {
      switch instruction {
      case .read(let variable): registers[thread] = variables[variable]
      case .write(let variable): variables[variable] = 10 * registers[thread] + thread + 1
      case .increment(let variable): variables[variable] = registers[thread] + 1
      case .lock(let lock):
        owners[lock] = thread
        held[thread].append(lock)
        join(&clocks[thread], lockClocks[lock] ?? [])
      case .unlock(let lock), .unlockWithinStep(let lock):
        owners[lock] = nil
        held[thread].removeAll { $0 == lock }
        lockClocks[lock] = clocks[thread]
        clocks[thread][thread] += 1
      case .probe(let lock):
        registers[thread] = owners[lock] == nil ? 1 : 0
        if owners[lock] == nil {
          join(&clocks[thread], lockClocks[lock] ?? [])
          lockClocks[lock] = clocks[thread]
          clocks[thread][thread] += 1
        }
      case .call:
        let operation = 10 * thread + operationsStarted[thread]
        operationsStarted[thread] += 1
        running[thread] = operation
        for earlier in returned { precedence.insert([earlier, operation]) }
      case .return:
        if let operation = running[thread] { returned.append(operation) }
        running[thread] = nil
      }
      if let (variable, writes) = instruction.accessed {
        checkRace(on: variable, by: thread, writes: writes)
      }
    }

    /// As ``ControlledScheduler/checkRace(on:by:_:step:)``: a conflict counts when nothing orders it, and, for the full search, while its operation still runs.
    private mutating func checkRace(on variable: Int, by thread: Int, writes: Bool) {
      var conflicts = lastWrites[variable].map { [$0] } ?? []
      if writes { conflicts += reads[variable, default: [:]].values }
      let unordered = conflicts.filter { other in
        other.thread != thread && other.epoch > clocks[thread][other.thread]
          && other.operation >= 0
      }
      raced = raced || !unordered.isEmpty
      racedWhileRunning =
        racedWhileRunning || unordered.contains { running[$0.thread] == $0.operation }
      let access = Access(
        thread: thread, epoch: clocks[thread][thread], operation: running[thread] ?? -1)
      if writes {
        lastWrites[variable] = access
        reads[variable] = [:]
      } else {
        reads[variable, default: [:]][thread] = access
      }
    }

    private func join(_ clock: inout [Int], _ other: [Int]) {
      for (index, value) in other.enumerated() where value > clock[index] { clock[index] = value }
    }

    private func state(deadlocked: Bool) -> FinalState {
      FinalState(
        variables: variables, registers: registers, deadlocked: deadlocked,
        precedence: precedence, raced: raced)
    }
  }
}
