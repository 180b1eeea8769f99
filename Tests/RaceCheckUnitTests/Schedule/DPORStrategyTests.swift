import Dispatch
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

    @Test(arguments: 0..<2)
    func theReducedSearchReachesExactlyTheFinalStatesOfTheFullOneWithQueuedBlocks(batch: UInt64) {
      expectTheSameFinalStates(batch: batch, programs: 15, SimulatedProgram.generatedQueues)
    }

    @Test func blocksOnOneSerialQueueNeedOneScheduleForEachOrderOfTheirEnqueues() {
      // The queue runs the blocks one after the other: which block wrote last depends only on
      // which thread enqueued first, so the starts and ends need no other order tried.
      let program = SimulatedProgram(
        threads: [[.async(queue: 0, block: 0)], [.async(queue: 0, block: 1)]],
        blocks: [[.read(0), .write(0)], [.read(0), .write(0)]])
      let reduced = program.finalStates(under: DPORStrategy())
      let full = program.finalStates(
        under: BoundedDFSStrategy(bound: SimulatedProgram.unboundedPreemptions))
      #expect(reduced.states == full.states)
      // Block 0's thread 2 writes 3 and block 1's thread 3 then 34, or thread 3 writes 4 first.
      #expect(Set(reduced.states.map { $0.variables[0] }) == [34, 43])
      #expect(!reduced.states.contains { $0.raced })
      #expect(reduced.schedules == 2)
      #expect(full.schedules == 10)
    }

    @Test func blocksOnAConcurrentQueueOverlapUnlessOneIsABarrier() {
      // Block 0 (thread 2) reads and writes 10 × r + 3, block 1 (thread 3) writes 4: side by
      // side, block 1's write may fall between block 0's read and write, and is lost.
      let sideBySide = SimulatedProgram(
        threads: [[.async(queue: 1, block: 0)], [.async(queue: 1, block: 1)]],
        blocks: [[.read(0), .write(0)], [.write(0)]])
      let reduced = sideBySide.finalStates(under: DPORStrategy())
      let full = sideBySide.finalStates(
        under: BoundedDFSStrategy(bound: SimulatedProgram.unboundedPreemptions))
      #expect(reduced.states == full.states)
      #expect(Set(reduced.states.map { $0.variables[0] }) == [3, 4, 43])
      let barrier = SimulatedProgram(
        threads: [[.async(queue: 1, block: 0)], [.async(queue: 1, block: 1, barrier: true)]],
        blocks: [[.read(0), .write(0)], [.write(0)]])
      let ordered = barrier.finalStates(under: DPORStrategy())
      #expect(
        ordered.states
          == barrier.finalStates(
            under: BoundedDFSStrategy(bound: SimulatedProgram.unboundedPreemptions)
          ).states)
      #expect(Set(ordered.states.map { $0.variables[0] }) == [4, 43])
    }

    private func expectTheSameFinalStates(
      batch: UInt64, programs: Int = 50,
      _ generate: @escaping @Sendable (UInt64) -> SimulatedProgram
    ) {
      // The simulator runs no threads and shares nothing: the programs are searched side by
      // side, on every core, and judged in order.
      typealias Searched = (
        program: SimulatedProgram, exhaustive: SimulatedProgram.Search,
        dpor: SimulatedProgram.Search
      )
      let searched = UnsafeMutableBufferPointer<Searched?>.allocate(capacity: programs)
      searched.initialize(repeating: nil)
      defer { searched.deallocate() }
      DispatchQueue.concurrentPerform(iterations: programs) {
        [searched = UncheckedBox(searched)] index in
        let program = generate(batch * 1_000 + UInt64(index))
        // Each iteration writes its own element.
        searched.value[index] = (
          program,
          program.finalStates(
            under: BoundedDFSStrategy(bound: SimulatedProgram.unboundedPreemptions)),
          program.finalStates(under: DPORStrategy())
        )
      }
      var reduced = 0
      var full = 0
      for index in 0..<programs {
        let seed = batch * 1_000 + UInt64(index)
        // concurrentPerform returns once every iteration has run.
        let (program, exhaustive, dpor) = searched[index]!
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
    /// Enqueues the program's block of this index on the queue of this index, serial for queue 0, concurrent for queue 1, as a barrier or not: a thread of its own runs it once the queue admits it.
    case async(queue: Int, block: Int, barrier: Bool = false)
    /// A queued block's first step: the queue admits it, once the blocks it must run after ended; `alone` for one that runs alone on its queue.
    case blockStart(queue: Int, alone: Bool)
    /// A queued block's last step, which may let blocks waiting for it in.
    case blockEnd(queue: Int, alone: Bool)

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
      case .async(let queue, let block, let barrier):
        "q\(queue).async(\(barrier ? "barrier " : "")block \(block))"
      case .blockStart(let queue, let alone): "start\(alone ? " alone" : "") on q\(queue)"
      case .blockEnd(let queue, let alone): "end\(alone ? " alone" : "") on q\(queue)"
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
  /// The blocks `async` enqueues, each run by a thread of its own, numbered after the program's threads.
  let blocks: [[Instruction]]

  init(threads: [[Instruction]], blocks: [[Instruction]] = []) {
    self.threads = threads
    self.blocks = blocks
  }

  var description: String {
    let blockLines = blocks.enumerated().map {
      "block \($0.offset): " + $0.element.map(\.description).joined(separator: "; ")
    }
    return threads.enumerated().map {
      "thread \($0.offset): " + $0.element.map(\.description).joined(separator: "; ")
    }
    .joined(separator: "\n") + blockLines.map { "\n" + $0 }.joined()
  }

  /// The thread that runs block `block`: blocks are numbered after the program's threads, whatever order they are enqueued in.
  func thread(runningBlock block: Int) -> Int { threads.count + block }

  /// Whether the queue of this index runs one block at a time: queue 0 does, queue 1 runs blocks side by side but its barriers.
  static func isSerial(queue: Int) -> Bool { queue == 0 }

  /// By thread, what it runs: a queued block's thread starts and ends on its queue.
  private var instructionsByThread: [[Instruction]] {
    var admission: [Int: (queue: Int, alone: Bool)] = [:]
    for case .async(let queue, let block, let barrier) in (threads + blocks).joined() {
      admission[block] = (queue, Self.isSerial(queue: queue) || barrier)
    }
    return threads
      + blocks.enumerated().map { block, instructions in
        let (queue, alone) = admission[block] ?? (0, true)
        return [.blockStart(queue: queue, alone: alone)] + instructions
          + [.blockEnd(queue: queue, alone: alone)]
      }
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

  /// A program of two threads that each enqueue a block of one or two accesses on a serial or a concurrent queue, maybe as a barrier, with an access before or after.
  static func generatedQueues(seed: UInt64) -> SimulatedProgram {
    var random = SplitMix64(seed: seed)
    let threads = (0..<2).map { block in
      let submit = Instruction.async(
        queue: random.below(2), block: block, barrier: random.below(2) == 0)
      let access = randomAccess(&random)
      return random.below(2) == 0 ? [access, submit] : [submit, access]
    }
    let blocks = (0..<2).map { _ in
      (0..<(1 + random.below(2))).map { _ in
        random.below(3) == 0
          ? Instruction.probe(random.below(2)) : randomAccess(&random)
      }
    }
    return SimulatedProgram(threads: threads, blocks: blocks)
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

  /// What a search of a program reached: its final states, its schedules, and whether a race showed while the earlier access's operation still ran.
  typealias Search = (states: Set<FinalState>, schedules: Int, racedWhileRunning: Bool)

  /// Runs every schedule `strategy` gives and collects where they ended, and whether one showed a race while the earlier access's operation still ran.
  func finalStates(under strategy: some ScheduleStrategy) -> Search {
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
    /// By thread, what it runs, the blocks' threads included.
    let instructions: [[Instruction]]
    /// By thread, whether it was made: the program's threads are, a block's once enqueued.
    var made: [Bool]
    /// By queue, the threads of its blocks enqueued and not yet started, in order, and whether each runs alone.
    var pendingBlocks: [Int: [(thread: Int, alone: Bool)]] = [:]
    /// By queue, the threads of the blocks it runs, and whether each runs alone.
    var runningBlocks: [Int: [(thread: Int, alone: Bool)]] = [:]
    /// By queue, the clocks of every block that ended: a block that runs alone starts after them.
    var allEnds: [Int: [Int]] = [:]
    /// By queue, the clock of the last block that ran alone: every block starts after it.
    var lastAloneEnd: [Int: [Int]] = [:]
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
      instructions = program.instructionsByThread
      let count = instructions.count
      made = instructions.indices.map { $0 < program.threads.count }
      positions = Array(repeating: 0, count: count)
      registers = Array(repeating: 0, count: count)
      held = Array(repeating: [], count: count)
      clocks = (0..<count).map { thread in (0..<count).map { $0 == thread ? 1 : 0 } }
      running = Array(repeating: nil, count: count)
      operationsStarted = Array(repeating: 0, count: count)
    }

    mutating func finish(_ strategy: inout some ScheduleStrategy) -> FinalState {
      let threads = instructions
      for thread in program.threads.indices { strategy.threadCreated(thread) }
      var last = 0
      var step = 0
      while true {
        let unfinished = threads.indices.filter { made[$0] && positions[$0] < threads[$0].count }
        let footprints = threads.indices.map { thread in
          made[thread] && positions[thread] < threads[thread].count ? footprint(of: thread) : nil
        }
        let enabled = unfinished.filter { thread in
          switch threads[thread][positions[thread]] {
          case .lock(let lock): owners[lock] == nil
          case .blockStart(let queue, _): canStart(thread, on: queue)
          default: true
          }
        }
        if enabled.isEmpty {
          strategy.endSchedule(steps: step, waiting: footprints)
          return state(deadlocked: !unfinished.isEmpty)
        }
        let chosen = strategy.choose(
          SchedulingPoint(enabled: enabled, running: last, step: step, footprints: footprints))
        execute(threads[chosen][positions[chosen]], by: chosen)
        if case .async(_, let block, _) = threads[chosen][positions[chosen]] {
          strategy.threadCreated(program.thread(runningBlock: block))
        }
        positions[chosen] += 1
        var released: [UInt] = []
        while positions[chosen] < threads[chosen].count,
          case .unlockWithinStep(let lock) = threads[chosen][positions[chosen]]
        {
          execute(.unlock(lock), by: chosen)
          released.append(Self.address(ofLock: lock))
          positions[chosen] += 1
        }
        if !released.isEmpty { strategy.stepTouched(released.map(StepFootprint.Touch.primitive)) }
        last = chosen
        step += 1
      }
    }

    private static func address(ofLock lock: Int) -> UInt { UInt(200 + lock) }

    private static func address(ofVariable variable: Int) -> UInt { UInt(100 + variable) }

    private static func address(ofQueue queue: Int) -> UInt { UInt(300 + queue) }

    private func footprint(of thread: Int) -> StepFootprint {
      let next: StepFootprint =
        switch instructions[thread][positions[thread]] {
        case .read(let variable): .reads(Self.address(ofVariable: variable))
        case .write(let variable), .increment(let variable):
          .writes(Self.address(ofVariable: variable))
        case .lock(let lock), .unlock(let lock), .unlockWithinStep(let lock), .probe(let lock):
          .primitive(Self.address(ofLock: lock))
        case .call: .call
        case .return: .callReturns
        case .async(let queue, _, _): .enqueues(Self.address(ofQueue: queue))
        case .blockStart(let queue, let alone), .blockEnd(let queue, let alone):
          .admission(Self.address(ofQueue: queue), alone: alone)
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
      case .async(let queue, let block, let barrier):
        // The block's thread starts after everything its maker did before.
        let blockThread = program.thread(runningBlock: block)
        made[blockThread] = true
        pendingBlocks[queue, default: []].append(
          (blockThread, SimulatedProgram.isSerial(queue: queue) || barrier))
        join(&clocks[blockThread], clocks[thread])
        clocks[thread][thread] += 1
      case .blockStart(let queue, let alone):
        pendingBlocks[queue]?.removeAll { $0.thread == thread }
        runningBlocks[queue, default: []].append((thread, alone))
        join(&clocks[thread], (alone ? allEnds[queue] : lastAloneEnd[queue]) ?? [])
      case .blockEnd(let queue, let alone):
        runningBlocks[queue]?.removeAll { $0.thread == thread }
        join(&allEnds[queue, default: []], clocks[thread])
        if alone { lastAloneEnd[queue] = clocks[thread] }
        clocks[thread][thread] += 1
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
      while clock.count < other.count { clock.append(0) }
      for (index, value) in other.enumerated() where value > clock[index] { clock[index] = value }
    }

    /// Whether the queue admits the block `thread` runs: as a dispatch queue, in order, one that runs alone once nothing else runs.
    private func canStart(_ thread: Int, on queue: Int) -> Bool {
      let pending = pendingBlocks[queue] ?? []
      let running = runningBlocks[queue] ?? []
      guard let index = pending.firstIndex(where: { $0.thread == thread }) else { return false }
      if pending[index].alone { return index == 0 && running.isEmpty }
      return !pending[..<index].contains { $0.alone } && !running.contains { $0.alone }
    }

    private func state(deadlocked: Bool) -> FinalState {
      FinalState(
        variables: variables, registers: registers, deadlocked: deadlocked,
        precedence: precedence, raced: raced)
    }
  }
}
