#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs one scenario many times and says what it found: the stress runner, the scheduler and the isolated child each do.
///
/// A ``CheckSession`` drives every mode through this one protocol, so the search loop,
/// the budget, shrinking, diagnosis, the report, the repro and interruption are
/// written once, whatever runs the scenarios.
protocol ScenarioRunning: AnyObject {
  /// Runs `request` and says what it found.
  func run(_ request: RunRequest) throws(RunError) -> RunResult

  /// Stops the runner's threads or child; it runs nothing afterwards.
  func shutDown()
}

/// One request to a runner: run this scenario this many times.
///
/// It crosses a pipe to isolated children as JSON, its times in the numbers they have always been (`RunRequest+Codable`).
package struct RunRequest: Sendable, Hashable {
  /// The scenario to run.
  var scenario: Scenario
  /// The seed of this scenario's random pauses (stress) or schedule strategy (schedule mode).
  var seed: UInt64
  /// The overlapping invocations to reach (stress) or the schedules to explore (schedule mode).
  var invocations: Int
  /// Whether to stop at the first failing invocation.
  var untilFirstFailure: Bool
  /// When no new invocation may start any more; the monotonic clock is system-wide, so an isolated child keeps it.
  var deadline: Deadline = .distantFuture
  /// Schedule mode: run exactly this recorded schedule, once.
  var replaying: [Int]? = nil
  /// Schedule mode: the schedule whose trace an isolated child streams as it runs.
  var tracedSchedule: Int? = nil
  /// Isolated runs: whether to run in a fresh child, so that nothing an earlier request left running (a dispatch block) can fail this one.
  var freshProcess: Bool = false
  /// Isolated runs: the time without progress after which the child counts as hung, when shorter than the configured timeout.
  var hangTimeout: Duration? = nil
  /// Whether to record the hops of `async` calls, and which operation to run alone.
  var asyncProbe: AsyncProbe? = nil
  /// Schedule mode, replaying a failing schedule: whether to look then for schedules that fail alike with fewer preemptions, and report the one with the fewest.
  var fewerPreemptions = false

  /// Creates a request; what the command line and the benchmarks ask for sets only the first five.
  package init(
    scenario: Scenario, seed: UInt64, invocations: Int, untilFirstFailure: Bool,
    deadline: Deadline = .distantFuture, replaying: [Int]? = nil, tracedSchedule: Int? = nil,
    freshProcess: Bool = false, hangTimeout: Duration? = nil, asyncProbe: AsyncProbe? = nil
  ) {
    self.scenario = scenario
    self.seed = seed
    self.invocations = invocations
    self.untilFirstFailure = untilFirstFailure
    self.deadline = deadline
    self.replaying = replaying
    self.tracedSchedule = tracedSchedule
    self.freshProcess = freshProcess
    self.hangTimeout = hangTimeout
    self.asyncProbe = asyncProbe
  }
}

/// What running one request found.
package struct RunResult: Codable, Sendable {
  /// The invocations (schedules) run.
  package var invocations: Int = 0
  /// The invocations in which calls of different threads ran at the same time; every schedule counts.
  var overlappingInvocations: Int = 0
  /// The distinct outcomes the checker decided.
  var distinctOutcomes: Int = 0
  /// The Good–Turing estimate of the chance that one more invocation would return results none of these did: how settled the scenario's exploration was.
  var chanceOfNewResults: Double = 1
  /// The invocations that failed.
  package var failures: Int = 0
  /// Whether the run stopped at the invocation cap before it reached its overlapping invocations.
  var capped: Bool = false
  /// The invocations that ended in a trap the spec's requirements allow (``Operation/requires(_:)``), which the session excused.
  var contractTraps: Int = 0
  /// Whether so many invocations trapped by contract that the session stopped the run short of its budget.
  var stoppedByContractTraps: Bool = false
  /// The first failure, if any.
  var failure: ObservedFailure?
  /// Schedule mode: the synchronization the code used that the scheduler could not see, which makes a pass inconclusive.
  var unseenSynchronization: [String] = []
  /// Schedule mode: whether the strategy had no schedule left to try when the run ended, so that nothing of the scenario was left unexplored.
  package var exploredEverySchedule = false

  /// Schedule mode: the C functions that ran with plain loads and stores the scheduler did not see, which makes a pass no proof.
  var untracedCode: [String] = []

  /// Adds `names` to ``untracedCode``, each once, in the order found.
  mutating func noteUntraced(_ names: [String]) {
    untracedCode = (untracedCode + names).uniqued()
  }

  /// Adds `names` to ``unseenSynchronization``, each once, in the order found.
  mutating func noteUnseen(_ names: [String]) {
    for name in names where !unseenSynchronization.contains(name) {
      unseenSynchronization.append(name)
    }
  }
  /// Schedule mode, replaying: where the run left the recorded schedule, if it did.
  var divergence: String?
  /// Schedule mode, replaying: the interleaving that ran.
  var replayedTrace: InterleavingTrace?
}

/// A failure as a runner observed it, before shrinking and diagnosis.
struct ObservedFailure: Codable, Sendable {
  /// What it showed.
  var evidence: Evidence
  /// The diagnosis the runner's own evidence names (a race or a deadlock the scheduler saw), if any.
  var diagnosis: Diagnosis?
  /// Schedule mode: which schedule failed and how.
  var schedule: ScheduleObservation?
  /// Isolated runs: the signal that ended the child, for a crash.
  var signal: Int32?
  /// Under an ``AsyncProbe``: the hops the failing invocation's `async` calls made.
  var asyncHops: [ExecutorHop]? = nil

  /// Whether this failure, of a shrinking candidate, is the same bug as `original`, so that shrinking keeps the bug it started with.
  ///
  /// `originalProvesARace` says that the original's own evidence proves a race (a read
  /// that returned a value no write stored): a death by memory corruption is then the same
  /// race, which a smaller scenario often shows that way instead.
  func isSameBug(as original: ObservedFailure, originalProvesARace: Bool = false) -> Bool {
    if originalProvesARace, isMemoryCorruption { return true }
    guard diagnosis?.pattern == original.diagnosis?.pattern else { return false }
    // A race Thread Sanitizer saw is the same whether or not the child survived it.
    if evidence.sanitizerRace != nil, original.evidence.sanitizerRace != nil { return true }
    // Safe Swift code does not corrupt memory by itself: a bad access, or the allocator or the
    // runtime aborting on its corrupted structures, is a race (or unsafe code), and one torn
    // string shows as any of the three from run to run. The same race in a smaller scenario
    // may show as results no order explains (a torn value) as often. Not the other way
    // round: results that fail may have a cause no corruption shares.
    if original.isMemoryCorruption, isMemoryCorruption || evidence.kind == .nonLinearizable {
      return true
    }
    // A hang says little: a race that corrupts memory can as well leave a thread spinning in a
    // torn structure, and the diagnosis runs a hung scenario again for a death that tells more.
    // A smaller scenario dying of corruption tells more in the same way.
    if original.evidence.crash?.kind == .hang, isMemoryCorruption { return true }
    return evidence.kind == original.evidence.kind && signal == original.signal
  }

  /// Whether the failure is a crash that memory corruption raises (``CrashEvidence/isMemoryCorruption``).
  var isMemoryCorruption: Bool { evidence.crash?.isMemoryCorruption ?? false }

  /// Whether this is a call that never returned in a check that runs in this process, which a run of it again would leave waiting once more.
  func isHangInThisProcess(isolated: Bool) -> Bool {
    !isolated && evidence.crash?.kind == .hang
  }
}

/// Schedule mode: the failing schedule and what the scheduler saw besides the failure.
struct ScheduleObservation: Codable, Sendable {
  /// The number of the schedule within its scenario.
  var index: Int
  /// The interleaving up to the failure.
  var trace: InterleavingTrace?
  /// What the scheduler noticed besides the failure, such as a barrier on a serial queue.
  var findings: [Diagnosis]
  /// The reads that went on after their call left a queue, while another call's block entered it.
  var escapedReads: [EscapedRead] = []
  /// The preemptions of the schedule first found, when the one observed was shrunk from it to fewer.
  var preemptionsBeforeShrinking: Int? = nil
}

/// Why a runner could not answer a request.
package enum RunError: Error, Sendable, Codable {
  /// An operation of the spec threw: the spec is broken.
  case operationThrew(SpecError)
  /// The isolated child could not be started, or did not serve requests.
  case workerUnavailable(String)
  /// The isolated child kept dying of a signal the code under test did not raise.
  case killedFromOutside(signal: Int32, attempts: Int)
  /// racecheck's own code crashed in the isolated child.
  case internalFault(InternalFault)
  /// The check was interrupted by this signal.
  case interrupted(signal: Int32)
  /// The isolated child made no progress while the machine kept it from a CPU: nothing is known of the request.
  case starved(Starvation)
}

/// Watches a runner's progress: the isolated child's link to its parent implements it.
///
/// Every method is called on the thread doing the work and must be cheap: the stress
/// runner calls ``operationStarts(thread:index:)`` around every call it makes.
package protocol RunObserver: AnyObject, Sendable {
  /// `scenario` runs next; returns its sequence number.
  func scenarioStarts(_ scenario: Scenario) -> Int
  /// Invocation (or schedule) `invocation` of scenario `sequence` starts.
  func invocationStarts(scenario sequence: Int, invocation: Int)
  /// The calling thread is the runner's thread `thread`.
  func threadStarts(_ thread: Int)
  /// Thread `thread` calls the scenario's call number `index`.
  func operationStarts(thread: Int, index: Int)
  /// Thread `thread`'s call returned.
  func operationEnds(thread: Int)
  /// A step of the traced schedule.
  func traced(_ event: InterleavingTrace.Event)
}
