import Foundation
import Synchronization

/// Worker children started before they are needed, kept for the life of the process, and one llvm-symbolizer for every death.
///
/// Each crash costs its worker, and shrinking one runs dozens of candidates, each in a fresh
/// child. Launching a worker costs far more than anything it then does (the loader, the
/// runtime's start, the program's globals, then its crash handler and recorder), so whenever a
/// worker is handed out the pool starts the next one for the same command and job in the
/// background, once the worker handed out has booted (two boots at once would share the
/// cores and both come late). That spare boots as far as a worker can without its check's configuration and
/// waits for it on its requests channel; the next check, or the next fresh candidate, takes
/// it ready. A spare is an ordinary child started the ordinary way, so it dies, hangs, is
/// killed and is reaped exactly as a worker started on demand would be.
///
/// A spare is used only while it can stand for a worker started now: it is still running, and
/// the environment and blocked signals it was started with are the current ones. Otherwise it
/// is killed and a worker starts on demand, as without the pool.
///
/// ```swift
/// let worker = try WorkerPool.shared.worker(for: command, job: job, configuration: configuration)
/// let answer = worker.serve(request, hangTimeout: .seconds(10), interruption: nil)
/// ```
package final class WorkerPool: Sendable {
  /// The pool isolated checks use unless they are given another.
  package static let shared = WorkerPool()

  /// How workers were handed out: the pool's counts, for tests and benchmarks.
  package struct Statistics: Hashable, Sendable {
    /// Workers handed out that had been started ahead.
    package var sparesTaken = 0
    /// Workers started on demand, because no spare could stand for one.
    package var startedOnDemand = 0
    /// Spares killed unused: they had ended, their inheritance had changed, or the pool was full.
    package var sparesDiscarded = 0
  }

  /// The command and job a spare was started for: a worker for another is another program or check.
  private struct Key: Hashable {
    var command: WorkerCommand
    var job: WorkerJob
  }

  private struct Spare {
    var key: Key
    var worker: WorkerProcess
  }

  private struct State {
    /// The spares, oldest first.
    var spares: [Spare] = []
    /// When a worker was last handed out for each command and job, over the last seconds.
    var lastHandedOut: [Key: MonotonicInstant] = [:]
    var statistics = Statistics()
    var symbolizerSession = SymbolizerSession()
  }

  private let state = Mutex(State())
  /// How many spares the pool keeps at most; starting one more kills the oldest.
  private let capacity: Int
  /// Whether handing out a worker starts the next one.
  private let startsSpares: Bool

  /// Workers asked for closer together than this (checks in a row, the fresh candidates of a shrink) outrun one spare's boot: two boot ahead.
  private let quickSuccession: Duration

  /// The most spares kept for one command and job.
  static var sparesPerJob: Int { 2 }

  /// Creates an empty pool that keeps at most `capacity` spares, and starts one whenever it hands a worker out if `startsSpares`, two when workers for the same job are asked for less than `quickSuccession` apart.
  package init(
    capacity: Int = 4, startsSpares: Bool = true, quickSuccession: Duration = .seconds(1)
  ) {
    self.quickSuccession = quickSuccession
    self.capacity = capacity
    self.startsSpares = startsSpares
  }

  /// A running worker for `job`, already given `configuration`: a spare when one can stand for a worker started now, else one started now.
  ///
  /// Either way the next spare for the same command and job starts in the background, once this
  /// worker has booted; two, when workers for it are asked for in quick succession.
  func worker(for command: WorkerCommand, job: WorkerJob, configuration: Configuration)
    throws(SystemCallError) -> WorkerProcess
  {
    let key = Key(command: command, job: job)
    let inheritance = WorkerProcess.inheritance(for: job)
    let (spare, depth) = state.withLock { state in
      let now = MonotonicInstant.now()
      let depth =
        state.lastHandedOut[key].map { now - $0 < quickSuccession } == true
        ? Self.sparesPerJob : 1
      state.lastHandedOut = state.lastHandedOut.filter { now - $0.value < quickSuccession }
      state.lastHandedOut[key] = now
      let spare = state.spares.firstIndex { $0.key == key }.map {
        state.spares.remove(at: $0).worker
      }
      return (spare, depth)
    }
    let worker: WorkerProcess
    if let spare, spare.inheritance == inheritance, spare.isRunning {
      worker = spare
      state.withLock { $0.statistics.sparesTaken += 1 }
    } else {
      if let spare {
        spare.discard()
        state.withLock { $0.statistics.sparesDiscarded += 1 }
      }
      worker = try WorkerProcess(command: command, inheritance: inheritance)
      state.withLock { $0.statistics.startedOnDemand += 1 }
    }
    worker.assign(configuration)
    if startsSpares {
      let thread = Thread { [self, worker] in
        // The next spare boots once this worker has booted: on a machine of few cores, two
        // boots at once would only slow each other. A worker that never runs a scenario (one
        // that dies first, or a program that is not a racecheck worker) holds it back 2 s.
        let deadline = Deadline.after(.seconds(2))
        while !worker.hasBegunRunning, !deadline.hasPassed { usleep(1_000) }
        for _ in 0..<depth where spareCount(for: key) < depth {
          _ = try? startSpare(for: key, inheritance: inheritance)
        }
      }
      thread.name = "racecheck-spare"
      thread.start()
    }
    return worker
  }

  /// Starts a spare for `command` and `job` now, inheriting what a worker started now would, and returns its process id.
  @discardableResult
  package func startSpare(for command: WorkerCommand, job: WorkerJob) throws(SystemCallError)
    -> Int32
  {
    try startSpare(
      for: Key(command: command, job: job), inheritance: WorkerProcess.inheritance(for: job))
  }

  private func startSpare(for key: Key, inheritance: ChildProcess.Inheritance)
    throws(SystemCallError) -> Int32
  {
    let spare = try WorkerProcess(command: key.command, inheritance: inheritance)
    let unwanted = state.withLock { state -> [WorkerProcess] in
      var unwanted: [WorkerProcess] = []
      if state.spares.filter({ $0.key == key }).count >= Self.sparesPerJob,
        let oldest = state.spares.firstIndex(where: { $0.key == key })
      {
        unwanted.append(state.spares.remove(at: oldest).worker)
      }
      state.spares.append(Spare(key: key, worker: spare))
      while state.spares.count > capacity { unwanted.append(state.spares.removeFirst().worker) }
      state.statistics.sparesDiscarded += unwanted.count
      return unwanted
    }
    for worker in unwanted { worker.discard() }
    return spare.processID
  }

  /// How the pool has handed workers out so far.
  package var statistics: Statistics { state.withLock { $0.statistics } }

  /// How many spares wait now.
  package var spareCount: Int { state.withLock { $0.spares.count } }

  private func spareCount(for key: Key) -> Int {
    state.withLock { state in state.spares.filter { $0.key == key }.count }
  }

  /// The kept llvm-symbolizer session: one for the process, so that it starts and reads debug information once, not once per check.
  ///
  /// A session whose tool failed is replaced, so that one slow answer on a busy machine does
  /// not leave every later check without a kept tool.
  var symbolizerSession: SymbolizerSession {
    state.withLock { state in
      if state.symbolizerSession.hasFailed { state.symbolizerSession = SymbolizerSession() }
      return state.symbolizerSession
    }
  }

  /// Kills every spare.
  package func discardSpares() {
    let spares = state.withLock { state in
      defer { state.spares.removeAll() }
      state.statistics.sparesDiscarded += state.spares.count
      return state.spares.map(\.worker)
    }
    for spare in spares { spare.discard() }
  }
}
