import RaceCheckHistory
import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// Partial-order reduction reaches every final state the unreduced search reaches, with fewer schedules: checked on generated programs of two and three threads run by a simulator, with no threads.
  @Suite struct DPORStrategyTests {
    @Test(arguments: 0..<4)
    func theReducedSearchReachesExactlyTheFinalStatesOfTheFullOne(batch: UInt64) {
      var reduced = 0
      var full = 0
      for index in 0..<50 {
        let seed = batch * 1_000 + UInt64(index)
        let program = SimulatedProgram.generated(seed: seed)
        let exhaustive = program.finalStates(
          under: BoundedDFSStrategy(bound: SimulatedProgram.unboundedPreemptions))
        let dpor = program.finalStates(under: DPORStrategy())
        #expect(dpor.states == exhaustive.states, "seed \(seed):\n\(program)")
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
  }
}

/// A tiny concurrent program of reads, writes and locks, run one step at a time under a strategy, as the scheduler runs real threads.
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

    var description: String {
      switch self {
      case .read(let variable): "read x\(variable)"
      case .write(let variable): "write x\(variable)"
      case .increment(let variable): "x\(variable) = r + 1"
      case .lock(let lock): "lock l\(lock)"
      case .unlock(let lock): "unlock l\(lock)"
      }
    }

    var footprint: StepFootprint {
      switch self {
      case .read(let variable): .reads(UInt(100 + variable))
      case .write(let variable), .increment(let variable): .writes(UInt(100 + variable))
      case .lock(let lock), .unlock(let lock): .primitive(UInt(200 + lock))
      }
    }
  }

  /// Where a program ended: its variables, each thread's register, and whether it deadlocked.
  struct FinalState: Hashable {
    var variables: [Int]
    var registers: [Int]
    var deadlocked: Bool
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
        let access: Instruction =
          switch random.below(3) {
          case 0: .read(random.below(variableCount))
          case 1: .write(random.below(variableCount))
          default: .increment(random.below(variableCount))
          }
        switch random.below(4) {
        case 0:
          let lock = random.below(2)
          instructions += [.lock(lock), access, .unlock(lock)]
        case 1:
          // Nested, in either order: two threads may take them in opposite orders.
          let outer = random.below(2)
          instructions += [
            .lock(outer), .lock(1 - outer), access, .unlock(1 - outer), .unlock(outer),
          ]
        default:
          instructions.append(access)
        }
      }
      return instructions
    }
    return SimulatedProgram(threads: threads)
  }

  /// Runs every schedule `strategy` gives and collects where they ended.
  func finalStates(under strategy: some ScheduleStrategy) -> (
    states: Set<FinalState>, schedules: Int
  ) {
    var strategy = strategy
    var states: Set<FinalState> = []
    var schedules = 0
    while schedules < 1_000_000, strategy.beginSchedule(schedules) {
      states.insert(runSchedule(&strategy))
      schedules += 1
    }
    return (states, schedules)
  }

  private func runSchedule(_ strategy: inout some ScheduleStrategy) -> FinalState {
    var positions = Array(repeating: 0, count: threads.count)
    var registers = Array(repeating: 0, count: threads.count)
    var variables = Array(repeating: 0, count: Self.variableCount)
    var owners: [Int: Int] = [:]
    for thread in threads.indices { strategy.threadCreated(thread) }
    var running = 0
    var step = 0
    while true {
      let unfinished = threads.indices.filter { positions[$0] < threads[$0].count }
      if unfinished.isEmpty { break }
      let enabled = unfinished.filter { thread in
        if case .lock(let lock) = threads[thread][positions[thread]] { return owners[lock] == nil }
        return true
      }
      let footprints = threads.indices.map { thread in
        positions[thread] < threads[thread].count
          ? threads[thread][positions[thread]].footprint : nil
      }
      if enabled.isEmpty {
        strategy.endSchedule(steps: step, waiting: footprints)
        return FinalState(variables: variables, registers: registers, deadlocked: true)
      }
      let chosen = strategy.choose(
        SchedulingPoint(enabled: enabled, running: running, step: step, footprints: footprints))
      switch threads[chosen][positions[chosen]] {
      case .read(let variable): registers[chosen] = variables[variable]
      case .write(let variable): variables[variable] = 10 * registers[chosen] + chosen + 1
      case .increment(let variable): variables[variable] = registers[chosen] + 1
      case .lock(let lock): owners[lock] = chosen
      case .unlock(let lock): owners[lock] = nil
      }
      positions[chosen] += 1
      running = chosen
      step += 1
    }
    strategy.endSchedule(steps: step, waiting: threads.map { _ in nil })
    return FinalState(variables: variables, registers: registers, deadlocked: false)
  }
}
