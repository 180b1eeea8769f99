import CRaceCheckInterposer
import Foundation

/// Runs scenarios on real threads, many invocations each, and checks every distinct outcome.
///
/// The calling thread is thread 0: it makes the subject, runs the init part, runs the
/// first column of the parallel part, then the post part. Threads 1… are created once
/// and reused for every invocation. All threads are released together by a spin
/// barrier, each after a small random spin so that their operations line up in
/// different ways from one invocation to the next.
package final class StressRunner<Subject, Model: Hashable & Sendable>: @unchecked Sendable {
  // @unchecked Sendable: the start and finish barriers order each invocation's accesses.
  /// What running one scenario found.
  package struct Result {
    /// The number of invocations run.
    package var invocations: Int
    /// The number of them in which the threads ran at the same time.
    var concurrentInvocations: Int
    /// The number of invocations whose outcome had no linearization.
    var failures: Int
    /// The number of linearizability searches run; other invocations were decided by earlier ones.
    var searches: Int
    /// The first history without a linearization, with the checker's longest prefix.
    var firstFailure: Failure?
    /// The number of distinct outcomes (results and real-time order) the checker decided.
    var distinctOutcomes: Int = 0
    /// The Good–Turing estimate that one more invocation would return results none did (``OutcomeChecker/chanceOfNewResults``).
    var chanceOfNewResults: Double = 1
    /// Whether the run stopped at the cap of ``StressRunner/capFactor`` times the invocations before enough of them overlapped.
    var capped: Bool = false
    /// In a `--sanitize=thread` build: the first race Thread Sanitizer reported, and its invocation's history.
    var firstRace: (report: rc_race_record, history: History)?
  }

  /// How many times the requested invocations a run may make to reach that many overlapping ones.
  static var capFactor: Int { 10 }

  /// Under Thread Sanitizer, the invocations run after results fail, for a race that names the bug.
  static var raceSearchInvocations: Int { 100 }

  /// A history without a linearization.
  struct Failure {
    var history: History
    var longestPrefix: [Int]
    var stateAfterPrefix: Model
  }

  private let spec: Spec<Subject, Model>
  private let threads: Int
  private let start: SpinBarrier
  private let go: SpinBarrier
  private let finish: SpinBarrier
  private let stopped = DispatchGroup()
  /// Watches the run when it happens in an isolated child.
  private let observer: (any RunObserver)?
  /// Keeps the threads on distinct CPUs while they run invocations.
  private let placement = ThreadPlacement.current()
  /// Thread Sanitizer's reports, in a `--sanitize=thread` build.
  private let races = SanitizerRaceLog.isActive ? SanitizerRaceLog() : nil

  // Written by thread 0 before `start`, read by the other threads after it.
  private var subject: Subject?
  private var columns: [[PreparedScenario<Subject, Model>.Call]] = []
  /// Per thread, its column made from one task when every call of it is `async`.
  private var columnBatches: [AsyncBatch<Subject>?] = []
  /// Per thread, the wait of its `async` calls made from one task.
  private var batchWaits: [CompletionWait] = []
  private var columnOffsets: [Int] = []
  private var shuttingDown = false
  private var recording = true
  /// Each thread's seed for the random pauses between its calls in the current invocation.
  private var jitter: [UInt64] = []
  // Each thread writes its own slot between `start` and `finish`; thread 0 reads them after `finish`.
  private var slots: [StressColumnSlot] = []

  /// Creates a runner with `threads` threads, `threads - 1` of them started now.
  package init(spec: Spec<Subject, Model>, threads: Int, observer: (any RunObserver)? = nil) {
    self.spec = spec
    self.observer = observer
    self.threads = max(1, threads)
    // Threads pinned to CPUs of their own spin without yielding; more threads than CPUs share them.
    let ownCPUs = placement.allowed.count >= self.threads
    start = SpinBarrier(parties: self.threads, yieldsWhileSpinning: !ownCPUs)
    go = SpinBarrier(parties: self.threads, spinLimit: 1_000_000, yieldsWhileSpinning: !ownCPUs)
    finish = SpinBarrier(parties: self.threads, yieldsWhileSpinning: !ownCPUs)
    slots = (0..<self.threads).map { _ in StressColumnSlot() }
    batchWaits = (0..<self.threads).map { _ in CompletionWait() }
    jitter = Array(repeating: 0, count: self.threads)
    for thread in 1..<self.threads {
      stopped.enter()
      let worker = Thread { [self] in
        workerLoop(thread)
        stopped.leave()
      }
      worker.name = "racecheck-\(thread)"
      worker.start()
    }
  }

  /// The number of threads the runner was made with: the widest scenario it can run.
  var threadCount: Int { threads }

  /// Stops the threads; the runner cannot run anything afterwards.
  package func shutDown() {
    guard threads > 1, !shuttingDown else { return }
    shuttingDown = true
    start.arriveAndWait()
    stopped.wait()
  }

  deinit {
    shutDown()
  }

  private func workerLoop(_ thread: Int) {
    observer?.threadStarts(thread)
    placement.pin(thread: thread)
    while true {
      start.arriveAndWait()
      if shuttingDown { return }
      go.arriveAndWait()
      runColumn(thread)
      finish.arriveAndWait()
    }
  }

  /// Runs `scenario` up to `invocations` times and checks each distinct outcome.
  ///
  /// - Parameters:
  ///   - scenario: The scenario, its calls bound to the subject and the model.
  ///   - invocations: The invocations in which the threads overlapped to reach.
  ///   - stopAtFirstFailure: Return as soon as one invocation fails.
  ///   - deadline: When no new invocation may start any more.
  ///   - seed: The seed of the random pauses between calls.
  ///   - shouldStop: Asked every 64 invocations whether the check was interrupted.
  /// - Returns: What the invocations found.
  /// - Throws: The error of an operation that threw: the spec is broken.
  package func run(
    _ scenario: PreparedScenario<Subject, Model>, invocations: Int, stopAtFirstFailure: Bool = true,
    deadline: Deadline = .distantFuture, seed: UInt64 = 0, shouldStop: () -> Bool = { false }
  ) throws(OperationError) -> Result {
    precondition(scenario.columns.count <= threads, "the scenario has more threads than the runner")
    let calls = scenario.scenario.size
    var offsets: [Int] = []
    var offset = scenario.initial.count
    for column in scenario.columns {
      offsets.append(offset)
      offset += column.count
    }
    let columnRanges = zip(offsets, scenario.columns).map { $0..<($0 + $1.count) }
    columns = scenario.columns + Array(repeating: [], count: threads - scenario.columns.count)
    columnOffsets = offsets + Array(repeating: offset, count: threads - offsets.count)
    // Thread Sanitizer's hooks note each call on the thread that makes it, so under them
    // every call is made by its own thread.
    func batch(_ calls: [PreparedScenario<Subject, Model>.Call]) -> AsyncBatch<Subject>? {
      races == nil ? scenario.batch(calls, spec: spec) : nil
    }
    columnBatches = columns.map(batch)
    let initialBatch = batch(scenario.initial)
    let postBatch = batch(scenario.post)
    let concurrent = scenario.columns.filter { !$0.isEmpty }.count > 1
    let sequence = observer?.scenarioStarts(scenario.scenario) ?? 0
    observer?.threadStarts(0)
    let checker = OutcomeChecker(
      initial: spec.model, steps: scenario.steps, columnRanges: columnRanges)
    var random = SplitMix64(seed: seed)
    var result = Result(
      invocations: 0, concurrentInvocations: 0, failures: 0, searches: 0, firstFailure: nil)
    var record = InvocationRecord(capacity: calls)
    var unnamedRace: (report: rc_race_record, history: History)?
    var racesSought = Self.raceSearchInvocations
    for slot in slots { slot.record = InvocationRecord(capacity: calls) }
    // Thread 0 is the caller's thread: it is pinned for the run only.
    if concurrent { placement.pin(thread: 0) }
    // A report made before this run (a block an earlier one left running) is not this scenario's.
    _ = races?.takeReport()
    defer {
      subject = nil
      if concurrent { placement.release() }
    }

    // On a loaded machine the threads of many invocations never run at the same time,
    // and such an invocation tests nothing concurrent. The budget counts only those in
    // which they did, up to ten times as many invocations in all, so that a check is
    // as thorough on busy cores as on idle ones.
    search: while result.concurrentInvocations < invocations {
      if result.invocations >= Self.capFactor * invocations {
        result.capped = true
        break
      }
      if result.invocations > 0, deadline.hasPassed { break }
      if result.invocations & 0x3F == 0x3F, shouldStop() { break }
      result.invocations += 1
      observer?.invocationStarts(scenario: sequence, invocation: result.invocations - 1)
      races?.invocationStarts()
      let subject = spec.make()
      try perform(
        scenario.initial, from: 0, batch: initialBatch, on: subject, into: &record,
        scenario: scenario)
      self.subject = subject
      for thread in 0..<threads { jitter[thread] = concurrent ? random.next() : 0 }
      if concurrent { releaseThreads() }
      runColumn(0)
      if concurrent { finish.arriveAndWait() } else { runIdleColumns() }
      for (thread, range) in columnRanges.enumerated() {
        let slot = slots[thread]
        if let error = slot.error {
          slot.error = nil
          throw OperationError(
            call: scenario.scenario.allCalls[slot.failedCall!], error: error,
            history: merged(record, slot.record, range, completedUpTo: slot.failedCall!).history(
              of: scenario.scenario, completed: slot.failedCall!),
            thread: thread, index: slot.failedCall!)
        }
        for call in range {
          record.callTimes[call] = slot.record.callTimes[call]
          record.returnTimes[call] = slot.record.returnTimes[call]
          record.results[call] = slot.record.results[call]
        }
      }
      try perform(
        scenario.post, from: offset, batch: postBatch, on: subject, into: &record,
        scenario: scenario)
      self.subject = nil
      // Thread Sanitizer saw two accesses nothing ordered. A race it names specifically is the
      // failure, whatever the results; one it names only by family comes after a failure the
      // results show, which may name more.
      races?.waitForPendingBlocks()
      if let report = races?.takeReport() {
        if SanitizerRace.namesItsBug(report) {
          result.failures += 1
          if !concurrent || Self.threadsOverlapped(record, columnRanges) {
            result.concurrentInvocations += 1
          }
          if result.firstRace == nil {
            result.firstRace = (report, record.history(of: scenario.scenario))
          }
          if stopAtFirstFailure { break search }
          continue search
        }
        if unnamedRace == nil { unnamedRace = (report, record.history(of: scenario.scenario)) }
      }
      // A scenario of many threads can take the search longer than the whole time limit:
      // past the deadline it gives up, and the run ends short of its budget.
      let verdict = checker.check(record, deadline: deadline)
      if case .undecided = verdict { break search }
      if !concurrent || Self.threadsOverlapped(record, columnRanges) {
        result.concurrentInvocations += 1
      }
      switch verdict {
      case .linearizable, .undecided:
        continue
      case .repeatedFailure:
        result.failures += 1
      case .notLinearizable(let prefix, let state):
        result.failures += 1
        if result.firstFailure == nil {
          result.firstFailure = Failure(
            history: record.history(of: scenario.scenario), longestPrefix: prefix,
            stateAfterPrefix: state)
        }
      }
      // Under Thread Sanitizer results that fail may be a race it missed this time (its
      // history of an address is short, and a late block outlives it): a few more invocations
      // may show the race by name, which then is the failure.
      if stopAtFirstFailure, races != nil {
        if racesSought == 0 { break }
        racesSought -= 1
        continue
      }
      if stopAtFirstFailure { break }
    }
    // On a busy machine a block may not have run by the end of the wait: before results that
    // failed are reported, the blocks of their invocation get longer to show a race it names.
    // (After the extra search above, that is the last invocation's blocks.)
    if stopAtFirstFailure, let races, result.firstFailure != nil, result.firstRace == nil {
      races.waitForPendingBlocks(upTo: SanitizerRaceLog.failingBlocksWait)
      if let report = races.takeReport(), SanitizerRace.namesItsBug(report) {
        result.firstRace = (report, record.history(of: scenario.scenario))
      }
    }
    // A race named by family alone, with no failure that says more, is the failure still.
    if result.firstRace == nil, result.firstFailure == nil, let unnamedRace {
      result.firstRace = unnamedRace
      result.failures += 1
    }
    result.searches = checker.searches
    result.distinctOutcomes = checker.searches
    result.chanceOfNewResults = checker.chanceOfNewResults
    return result
  }

  /// Whether two threads of the parallel part were running at the same time: their first call came before the other's last return.
  ///
  /// It runs once per invocation, so it reads the record in place rather than building spans.
  static func threadsOverlapped(_ record: InvocationRecord, _ columnRanges: [Range<Int>]) -> Bool {
    for (index, first) in columnRanges.enumerated() where !first.isEmpty {
      let firstStart = record.callTimes[first.lowerBound]
      let firstEnd = record.returnTimes[first.upperBound - 1]
      for second in columnRanges[(index + 1)...] where !second.isEmpty {
        if firstStart < record.returnTimes[second.upperBound - 1]
          && record.callTimes[second.lowerBound] < firstEnd
        {
          return true
        }
      }
    }
    return false
  }

  /// Makes the calls of the init or post part on thread 0, the first at history index `first`: from one task when `batch` is given.
  private func perform(
    _ calls: [PreparedScenario<Subject, Model>.Call], from first: Int, batch: AsyncBatch<Subject>?,
    on subject: Subject, into record: inout InvocationRecord,
    scenario: PreparedScenario<Subject, Model>
  ) throws(OperationError) {
    guard let batch else {
      for (offset, call) in calls.enumerated() {
        try perform(call, on: subject, at: first + offset, into: &record, scenario: scenario)
      }
      return
    }
    let outcome = run(batch, on: subject, thread: 0, from: first)
    for offset in calls.indices {
      record.callTimes[first + offset] = outcome.callTimes[offset]
      record.returnTimes[first + offset] = outcome.returnTimes[offset]
      record.results[first + offset] = outcome.results[offset]
    }
    if let thrown = outcome.thrown {
      let index = first + thrown.offset
      throw OperationError(
        call: scenario.scenario.allCalls[index], error: thrown.error,
        history: record.history(of: scenario.scenario, completed: index), thread: 0, index: index)
    }
  }

  /// Makes `batch`'s calls, the first at history index `first`, from one task for `thread`, telling the observer of each.
  private func run(
    _ batch: AsyncBatch<Subject>, on subject: Subject, thread: Int, from first: Int,
    pauses: SplitMix64? = nil
  ) -> AsyncBatch<Subject>.Outcome {
    let observer = observer
    // Drawn up front, in the order the calls use them, so the task needs no shared generator.
    var random = pauses
    let pauses = batch.calls.map { _ in random?.next() }
    return batch.run(
      on: subject, waiting: batchWaits[thread], first: first,
      before: { offset in
        if let pause = pauses[offset] { spin(pause) }
        observer?.operationStarts(thread: thread, index: first + offset)
      },
      after: { _ in observer?.operationEnds(thread: thread) })
  }

  private func perform(
    _ call: PreparedScenario<Subject, Model>.Call, on subject: Subject, at index: Int,
    into record: inout InvocationRecord, scenario: PreparedScenario<Subject, Model>
  ) throws(OperationError) {
    observer?.operationStarts(thread: 0, index: index)
    if races != nil { rc_sanitizer_call_begins(0, Int64(index)) }
    defer {
      if races != nil { rc_sanitizer_call_ends() }
      observer?.operationEnds(thread: 0)
    }
    record.callTimes[index] = MonotonicInstant.now().nanoseconds
    do {
      record.results[index] = try call.perform(subject, call.arguments)
    } catch {
      throw OperationError(
        call: scenario.scenario.allCalls[index], error: error,
        history: record.history(of: scenario.scenario, completed: index), thread: 0, index: index)
    }
    record.returnTimes[index] = MonotonicInstant.now().nanoseconds
  }

  /// Starts the other threads on the current invocation, all at the same moment.
  ///
  /// A thread that waited long at `start` has gone to sleep, and waking it takes far
  /// longer than running a column, so a single barrier would let thread 0 finish before
  /// the others begin. The second barrier, `go`, is passed only by threads that are
  /// awake and spinning, which releases them together.
  private func releaseThreads() {
    start.arriveAndWait()
    go.arriveAndWait()
  }

  /// Runs this thread's column of the current invocation, recording into its slot.
  private func runColumn(_ thread: Int) {
    let column = columns[thread]
    guard !column.isEmpty, let subject else { return }
    let slot = slots[thread]
    // Random pauses before calls shift the threads against each other from one invocation
    // to the next, so that each pair of calls gets its chance to overlap.
    var pauses = SplitMix64(seed: jitter[thread])
    let pausing = jitter[thread] != 0
    var index = columnOffsets[thread]
    guard recording else {
      for call in column { _ = try? call.perform(subject, call.arguments) }
      return
    }
    if let batch = columnBatches[thread] {
      let outcome = run(
        batch, on: subject, thread: thread, from: index, pauses: pausing ? pauses : nil)
      let completed = outcome.thrown?.offset ?? column.count
      for offset in 0..<completed {
        slot.record.callTimes[index + offset] = outcome.callTimes[offset]
        slot.record.returnTimes[index + offset] = outcome.returnTimes[offset]
        slot.record.results[index + offset] = outcome.results[offset]
      }
      if let thrown = outcome.thrown {
        slot.error = thrown.error
        slot.failedCall = index + thrown.offset
      }
      return
    }
    for call in column {
      if pausing { spin(pauses.next()) }
      observer?.operationStarts(thread: thread, index: index)
      if races != nil { rc_sanitizer_call_begins(Int32(thread), Int64(index)) }
      slot.record.callTimes[index] = MonotonicInstant.now().nanoseconds
      do {
        slot.record.results[index] = try call.perform(subject, call.arguments)
      } catch {
        if races != nil { rc_sanitizer_call_ends() }
        slot.error = error
        slot.failedCall = index
        return
      }
      if races != nil { rc_sanitizer_call_ends() }
      slot.record.returnTimes[index] = MonotonicInstant.now().nanoseconds
      observer?.operationEnds(thread: thread)
      index += 1
    }
  }

  /// Runs `scenario` `invocations` times with nothing recorded or checked, to measure what recording costs.
  package func runBare(_ scenario: PreparedScenario<Subject, Model>, invocations: Int) {
    recording = false
    defer { recording = true }
    columns = scenario.columns + Array(repeating: [], count: threads - scenario.columns.count)
    columnOffsets = Array(repeating: 0, count: threads)
    for _ in 0..<invocations {
      let subject = spec.make()
      for call in scenario.initial { _ = try? call.perform(subject, call.arguments) }
      self.subject = subject
      releaseThreads()
      runColumn(0)
      finish.arriveAndWait()
      for call in scenario.post { _ = try? call.perform(subject, call.arguments) }
      self.subject = nil
    }
  }

  /// Runs the other columns in turn on thread 0: at most one of them has calls.
  private func runIdleColumns() {
    for thread in 1..<threads { runColumn(thread) }
  }

  private func merged(
    _ record: InvocationRecord, _ column: InvocationRecord, _ range: Range<Int>, completedUpTo: Int
  ) -> InvocationRecord {
    var merged = record
    for call in range where call < completedUpTo {
      merged.callTimes[call] = column.callTimes[call]
      merged.returnTimes[call] = column.returnTimes[call]
      merged.results[call] = column.results[call]
    }
    return merged
  }
}

/// What one thread of a ``StressRunner`` records of its column in an invocation.
///
/// Not nested in the generic runner, where it would be generic too: every touch of a
/// generic class's metadata on the invocation path is a lookup in the runtime's cache.
private final class StressColumnSlot {
  var record = InvocationRecord(capacity: 0)
  var error: (any Error)?
  var failedCall: Int?
}

/// An operation threw instead of returning: the spec is broken, not the subject.
package struct OperationError: Error, CustomStringConvertible, Sendable {
  /// The call that threw.
  package var call: Scenario.Call
  /// What it threw.
  package var error: any Error
  /// Everything recorded in the invocation up to the call.
  package var history: History
  /// The runner thread that made the call.
  package var thread: Int
  /// The call's position in the scenario's history.
  package var index: Int

  package var description: String {
    "operation \(call) threw \(error)"
  }
}

/// Spins for a random short while: not at all half the time, else up to 255 iterations.
@inline(__always)
private func spin(_ random: UInt64) {
  guard random & 1 == 0 else { return }
  var count = Int((random >> 1) & 0xFF)
  while count > 0 {
    count -= 1
    blackHole(count)
  }
}

@inline(never)
package func blackHole(_ value: Int) {
  _ = value
}
