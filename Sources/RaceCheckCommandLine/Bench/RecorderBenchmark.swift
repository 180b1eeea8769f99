import Foundation
import RaceCheckRecorder
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `racecheck bench recorder`: what recording a call costs, on the calling thread and all in, with 1 and 2 threads recording.
///
/// Each round records `operations` kv `put("key", "value")` calls with an empty body and no
/// result, split over the threads, to a file in the temporary folder, then finishes the
/// recorder (the last batch written and synced). A thread records in bursts of ``burst``
/// calls and, between bursts, writes what it recorded itself (`flush()`), outside its timed
/// part: calls with an empty body come faster than any writer encodes them, and recorded
/// flat out they would measure the wait for the writer (the backlog limit), not the buffer,
/// while a service's own calls take longer and leave the writer the time. Writing between
/// bursts rather than waiting for the writer's thread also keeps most of the encoding off the
/// other core while a burst is timed, which made the figure vary by half from run to run. The
/// calling thread's cost is its CPU time per call during the bursts
/// (`CLOCK_THREAD_CPUTIME_ID`), and its wall time; the total is the process's CPU time from the
/// first call to the end of `finish()` (every caller, and the encoding and writing on whichever
/// thread), per call. Each figure is the median of the rounds.
package struct RecorderBenchmark: Sendable {
  /// One configuration's figures, each the median of its rounds.
  package struct Figures: Sendable, Hashable {
    /// How many threads recorded at once.
    package var threads: Int
    /// CPU nanoseconds a calling thread spends per recorded call: the buffer only.
    package var callerNanoseconds: Double
    /// Wall nanoseconds a calling thread spends per recorded call, waits for the lock included.
    package var callerWallNanoseconds: Double
    /// CPU nanoseconds the whole process spends per recorded call, encoding and writing included.
    package var totalNanoseconds: Double
    /// Recorded calls per second, from the first call to the file synced.
    package var operationsPerSecond: Double
  }

  /// The calls a thread records before it waits for the writer.
  package static let burst = 4096
  /// Calls recorded in each round, over all threads.
  package var operations: Int
  /// Rounds of each configuration; the median is reported.
  package var rounds: Int
  /// The folder of the rounds' files, which are removed after each round.
  package var folder: String

  /// Creates the benchmark.
  package init(
    operations: Int = 1_000_000, rounds: Int = 5, folder: String = NSTemporaryDirectory()
  ) {
    self.operations = operations
    self.rounds = rounds
    self.folder = folder
  }

  /// Measures `threads` recording threads; throws when the file cannot be written.
  package func run(threads: Int) throws(RecordedHistory.Recorder.RecordingError) -> Figures {
    var measured: [Figures] = []
    for _ in 0..<rounds { measured.append(try round(threads: threads)) }
    func median(_ figure: (Figures) -> Double) -> Double {
      let sorted = measured.map(figure).sorted()
      return sorted[sorted.count / 2]
    }
    return Figures(
      threads: threads, callerNanoseconds: median(\.callerNanoseconds),
      callerWallNanoseconds: median(\.callerWallNanoseconds),
      totalNanoseconds: median(\.totalNanoseconds),
      operationsPerSecond: median(\.operationsPerSecond))
  }

  /// The CPU nanoseconds one reading of the monotonic clock costs the calling thread, the median of the rounds: a recorded call reads it twice, at its call and at its end.
  ///
  /// It is the clock's own cost, the same for anything that timestamps a call on this
  /// machine (the virtual DSO's `clock_gettime`: an ordered read of the time-stamp counter),
  /// and puts the caller's figure in proportion: what is left of it is the buffer's.
  package func clockReadingNanoseconds() -> Double {
    let readings = max(operations, 1)
    var measured: [Double] = []
    for _ in 0..<rounds {
      var sum: Int64 = 0
      let cpu = Self.threadCPUTime()
      for _ in 0..<readings { sum &+= MonotonicInstant.now().nanoseconds }
      let spent = Self.threadCPUTime() - cpu
      // The sum is used, so that the readings are not optimized away.
      measured.append(spent.fractionalNanoseconds / Double(readings) + (sum == 0 ? 1 : 0))
    }
    return measured.sorted()[measured.count / 2]
  }

  /// One round: the threads record their share at once, then the recorder finishes.
  private func round(threads: Int) throws(RecordedHistory.Recorder.RecordingError) -> Figures {
    let path = folder + "/racecheck-bench-recorder-\(UUID().uuidString).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try RecordedHistory.Recorder(writingTo: path, model: "kv")
    let share = operations / threads
    let start = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let spent = Mutex<[(cpu: Duration, wall: Duration)]>([])
    for index in 0..<threads {
      let thread = Thread {
        start.wait()
        var measured = (cpu: Duration.zero, wall: Duration.zero)
        var left = share
        while left > 0 {
          let calls = min(left, Self.burst)
          let (cpu, wall) = (Self.threadCPUTime(), MonotonicInstant.now())
          for _ in 0..<calls {
            recorder.record("put", "key", "value") {}
          }
          measured.cpu += Self.threadCPUTime() - cpu
          measured.wall += wall.elapsed
          left -= calls
          recorder.flush()
        }
        spent.withLock { $0.append(measured) }
        done.signal()
      }
      thread.name = "racecheck-bench-recorder-\(index)"
      thread.start()
    }
    let processCPU = Self.processCPUTime()
    let began = MonotonicInstant.now()
    for _ in 0..<threads { start.signal() }
    for _ in 0..<threads { done.wait() }
    try recorder.finish()
    let elapsed = began.elapsed
    let total = Self.processCPUTime() - processCPU
    let perThread = spent.withLock { $0 }
    let calls = Double(share * threads)
    let callerCPU = perThread.reduce(Duration.zero) { $0 + $1.cpu }
    let callerWall = perThread.reduce(Duration.zero) { $0 + $1.wall }
    return Figures(
      threads: threads, callerNanoseconds: callerCPU.fractionalNanoseconds / calls,
      callerWallNanoseconds: callerWall.fractionalNanoseconds / calls,
      totalNanoseconds: total.fractionalNanoseconds / calls,
      operationsPerSecond: elapsed.rate(of: share * threads))
  }

  /// The CPU time the calling thread has used.
  private static func threadCPUTime() -> Duration {
    cpuTime(CLOCK_THREAD_CPUTIME_ID)
  }

  /// The CPU time every thread of the process has used.
  private static func processCPUTime() -> Duration {
    cpuTime(CLOCK_PROCESS_CPUTIME_ID)
  }

  private static func cpuTime(_ clock: clockid_t) -> Duration {
    var time = timespec()
    clock_gettime(clock, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }
}
