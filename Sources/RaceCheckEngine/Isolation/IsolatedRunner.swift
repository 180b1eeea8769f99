#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs scenarios in a worker child, so that a crash or a hang in the code under test becomes evidence instead of the end of racecheck.
///
/// One child serves request after request; when it dies, the death is the request's
/// failure, and the next request takes a fresh child from the ``WorkerPool``, usually one
/// started ahead and waiting. A child killed by a signal the
/// crash handler did not see (SIGKILL from outside, the OOM killer) is not a failure of
/// the code under test: the request runs again in a fresh child, and only a child that
/// keeps dying that way ends the check.
final class IsolatedRunner: ScenarioRunning {
  private let command: WorkerCommand
  private let job: WorkerJob
  private let configuration: Configuration
  private let hangTimeout: Duration
  /// The timeout of each operation that has one, by name: a call in flight longer than its own is hung.
  private let callTimeouts: [String: Duration]
  private let interruption: Interruption?
  /// Where the children come from: the command's pool.
  private let pool: WorkerPool
  private var worker: WorkerProcess?
  /// Names the stacks of every child that dies: the pool's llvm-symbolizer, kept for the process.
  private let symbolizer: Symbolizer
  /// The stacks of Thread Sanitizer's reports from children that died, symbolized once each.
  private lazy var raceStacks = SanitizerStacks(symbolizer: symbolizer)

  /// How many children in a row may die of an outside signal before the check gives up.
  static var outsideKillAttempts: Int { 3 }

  init(
    command: WorkerCommand, target: String, configuration: Configuration,
    callTimeouts: [String: Duration] = [:], interruption: Interruption? = nil
  ) {
    self.command = command
    job = WorkerJob(target: target, command: command)
    self.configuration = configuration
    hangTimeout = configuration.hangTimeout
    self.callTimeouts = callTimeouts
    self.interruption = interruption
    pool = command.pool
    symbolizer = Symbolizer(session: command.pool.symbolizerSession)
  }

  func shutDown() {
    worker?.close()
    worker = nil
  }

  func run(_ request: RunRequest) throws(RunError) -> RunResult {
    var outsideKills = 0
    if request.freshProcess { shutDown() }
    while true {
      let worker: WorkerProcess
      do {
        worker =
          try self.worker ?? pool.worker(for: command, job: job, configuration: configuration)
      } catch {
        throw .workerUnavailable("the isolated child could not be started: \(error)")
      }
      self.worker = worker
      let timeout = min(hangTimeout, request.hangTimeout ?? hangTimeout)
      let answer = worker.serve(
        request, hangTimeout: timeout, callTimeouts: callTimeouts, interruption: interruption)
      switch answer {
      case .result(let result, _):
        return result
      case .failed(let error):
        throw error
      case .interrupted(let signal):
        self.worker = nil
        throw .interrupted(signal: signal)
      case .starved(let starvation):
        self.worker = nil
        throw .starved(starvation)
      case .died(let death, let trace):
        self.worker = nil
        if let signal = death.outsideSignal {
          if let interrupted = interruption?.signal { throw .interrupted(signal: interrupted) }
          outsideKills += 1
          if outsideKills >= Self.outsideKillAttempts {
            throw .killedFromOutside(signal: signal, attempts: outsideKills)
          }
          continue
        }
        if death.termination == .exited(0), !death.hung, death.crashRecord == nil,
          death.snapshot.scenario == nil, death.strayOutput.isEmpty
        {
          throw .workerUnavailable(command.neverStartedMessage)
        }
        if let fault = death.internalFault(symbolizer: symbolizer) { throw .internalFault(fault) }
        let evidence = death.evidence(of: request.scenario, symbolizer: symbolizer)
        let took = (death.snapshot.invocation ?? 0) + 1
        var failure = ObservedFailure(evidence: .death(evidence), signal: death.signal)
        // A race Thread Sanitizer named before the child died is the failure; the death came of
        // it. One it names only by family leaves the death to say more.
        if let report = death.sanitizerReport, SanitizerRace.namesItsBug(report) {
          let decoded = SanitizerRace.decoded(
            report, scenario: request.scenario, stacks: raceStacks)
          failure = ObservedFailure(
            evidence: .sanitizerRace(decoded.race, .died(evidence)), diagnosis: decoded.diagnosis,
            signal: death.signal)
        }
        if !trace.isEmpty {
          failure.schedule = ScheduleObservation(
            index: death.snapshot.invocation ?? 0, trace: InterleavingTrace(events: trace),
            findings: [])
        }
        return RunResult(invocations: took, failures: 1, failure: failure)
      }
    }
  }
}
