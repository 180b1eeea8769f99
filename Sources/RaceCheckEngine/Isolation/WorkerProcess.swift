import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One worker child, as its parent sees it: started, given its check's configuration, then sent requests until it dies or is closed.
///
/// The child announces every scenario and keeps the shared flight recorder current, so when
/// it dies the parent knows the invocation and the calls in flight, and reads the crashing
/// thread's stack from the report pipe. A child that makes no progress for the hang timeout,
/// counted on a ``StallClock`` (only the time the machine did not keep it from a CPU), is
/// hung: the parent asks every thread for its stack, then kills it. One that the machine
/// starves for ``Starvation/wallLimit(hangTimeout:)`` of wall time is killed and proves nothing.
///
/// A child boots as far as it can before it has a configuration, then waits for it on its
/// requests channel: a ``WorkerPool`` starts one ahead of its use. One thread uses a worker at
/// a time (the pool hands it over whole), hence `@unchecked Sendable`.
final class WorkerProcess: @unchecked Sendable {
  // @unchecked Sendable: one thread uses a worker at a time (the pool hands it over whole).
  /// What serving one request came to.
  enum Answer {
    /// The child answered.
    case result(RunResult, trace: [InterleavingTrace.Event])
    /// The child could not run the request.
    case failed(RunError)
    /// The child died, or was killed hung, while it ran the request.
    case died(ChildDeath, trace: [InterleavingTrace.Event])
    /// The check was interrupted; the child was killed.
    case interrupted(signal: Int32)
    /// The child made no progress, but the machine kept it from a CPU for most of that time: it was killed, and nothing is known of the request.
    case starved(Starvation)
  }

  private let child: ChildProcess
  /// What the child inherited when it started; a spare stands for a new worker only while it is still the current one.
  let inheritance: ChildProcess.Inheritance
  private let recorder: FlightRecorder
  private let messages: ReportPipe
  private let records: ReportPipe
  private let errors: ReportPipe
  private let requests: RequestChannel
  private var pending: [UInt8] = []
  /// How the child ended, once the parent has reaped it outside ``serve(_:hangTimeout:interruption:)``.
  private var reaped: ChildProcess.Termination?

  /// The environment every worker is started with, besides its job and the parent's.
  private static let environment = [
    "SWIFT_BACKTRACE": "enable=no", "SWIFT_DETERMINISTIC_HASHING": "1",
  ]

  /// What a worker for `job` started now from the calling thread inherits.
  static func inheritance(for job: WorkerJob) -> ChildProcess.Inheritance {
    .current(adding: environment.merging([WorkerJob.environmentKey: job.environmentValue]) { $1 })
  }

  /// Starts `command` as a worker with the environment (its job among it) and blocked signals of `inheritance`; it waits for ``assign(_:)``.
  init(command: WorkerCommand, inheritance: ChildProcess.Inheritance) throws(SystemCallError) {
    self.inheritance = inheritance
    recorder = try FlightRecorder()
    messages = try ReportPipe()
    records = try ReportPipe()
    errors = try ReportPipe()
    requests = try RequestChannel()
    let silence = open("/dev/null", O_WRONLY | O_CLOEXEC)
    guard silence >= 0 else { throw .fromErrno("open /dev/null") }
    defer { Glibc.close(silence) }
    child = try ChildProcess.spawn(
      executable: command.executable, arguments: command.arguments, inheritance: inheritance,
      fileDescriptors: [
        WorkerJob.messagesDescriptor: messages.writeEnd,
        WorkerJob.reportDescriptor: records.writeEnd,
        WorkerJob.recorderDescriptor: recorder.fileDescriptor,
        WorkerJob.requestsDescriptor: requests.childEnd,
        // A re-launched test binary prints its framework's progress, which is not the report.
        STDOUT_FILENO: silence,
        STDERR_FILENO: errors.writeEnd,
      ])
    messages.closeWriteEnd()
    records.closeWriteEnd()
    errors.closeWriteEnd()
    requests.closeChildEnd()
  }

  /// The child's process id.
  var processID: Int32 { child.id }

  /// Whether the child has begun to run a scenario, so has finished booting; readable from any thread.
  var hasBegunRunning: Bool { recorder.snapshot().invocation != nil }

  /// Whether the child is still running; one that ended is reaped.
  var isRunning: Bool { endedChild() == nil }

  /// How the child ended, reaping it if it just did; nil while it runs.
  private func endedChild() -> ChildProcess.Termination? {
    if reaped == nil { reaped = try? child.poll() }
    return reaped
  }

  /// Waits for the child to end and reaps it, unless it was reaped already.
  private func waitForChild() -> ChildProcess.Termination? {
    if reaped == nil { reaped = try? child.wait() }
    return reaped
  }

  /// Gives the child its check's configuration, the first line of its requests channel.
  ///
  /// A child that is gone by then is found dead by the first ``serve(_:hangTimeout:interruption:)``.
  func assign(_ configuration: Configuration) {
    let line = (try? JSONEncoder().encode(configuration)) ?? Data()
    _ = requests.send(line: Array(line))
  }

  /// Kills the child and reaps it: a spare no check will take.
  func discard() {
    requests.closeParentEnd()
    guard isRunning else { return }
    try? child.kill(SIGKILL)
    _ = waitForChild()
  }

  /// Ends the child: closing its requests channel tells it to exit; it is killed if it does not within 200 ms.
  func close() {
    requests.closeParentEnd()
    // Most children exit within a millisecond of end-of-file: wait in short, growing steps.
    var pause: UInt32 = 200  // microseconds
    var waited: UInt32 = 0
    while waited < 200_000 {
      if !isRunning { return }
      usleep(pause)
      waited += pause
      pause = min(pause * 2, 10_000)
    }
    discard()
  }

  /// Sends `request` and watches the child until it answers, dies, hangs, or the check is interrupted.
  ///
  /// The child is hung when it makes no progress for `hangTimeout`, or a call in flight for
  /// its operation's timeout in `callTimeouts` when that is shorter, on a ``StallClock``.
  func serve(
    _ request: RunRequest, hangTimeout: Duration, callTimeouts: [String: Duration] = [:],
    interruption: Interruption?
  ) -> Answer {
    let sent = requests.send(line: Array((try? JSONEncoder().encode(request)) ?? Data()))
    var trace: [InterleavingTrace.Event] = []
    var errorBytes: [UInt8] = []
    var stray: [UInt8] = []
    var progress = recorder.snapshot()
    var clock = StallClock(process: child.id)
    var hung = false
    var hangDetail: String?
    var termination: ChildProcess.Termination?
    while sent {
      // Back as soon as a whole message is in, so that a short request costs no more than its run.
      pending +=
        (try? messages.read(timeout: .milliseconds(50)) { $0.contains(UInt8(ascii: "\n")) })?
        .bytes ?? []
      errorBytes += ((try? errors.readAvailable()) ?? []).prefix(65_536)
      for message in takeMessages(stray: &stray) {
        switch message {
        case .trace(let event): trace.append(event)
        case .result(let result): return .result(result, trace: trace)
        case .failed(let error): return .failed(error)
        case .scenario: break
        }
      }
      termination = endedChild()
      if termination != nil { break }
      if let signal = interruption?.signal {
        try? child.kill(SIGKILL)
        _ = waitForChild()
        return .interrupted(signal: signal)
      }
      let now = recorder.snapshot()
      if now.scenario != progress.scenario || now.invocation != progress.invocation {
        progress = now
        clock.restart()
        continue
      }
      let reading = clock.advance()
      let limit = HangLimit(
        hangTimeout: hangTimeout, callTimeouts: callTimeouts, inFlight: now,
        scenario: request.scenario)
      if reading.stalled > limit.stall {
        hung = true
        hangDetail = limit.description
        _ = try? CrashCapture.requestStacks(fromProcess: child.id)
        break
      }
      if reading.wall > Starvation.wallLimit(hangTimeout: hangTimeout) {
        try? child.kill(SIGKILL)
        _ = waitForChild()
        return .starved(
          Starvation(
            wall: reading.wall, stalled: reading.stalled, cpu: reading.cpu,
            loadAverage: StallClock.loadAverage()))
      }
    }
    var recordBytes: [UInt8] = []
    if hung {
      recordBytes += (try? records.read(timeout: .seconds(1)))?.bytes ?? []
      try? child.kill(SIGKILL)
    }
    let ended = termination ?? waitForChild() ?? .signaled(SIGKILL)
    // Whatever the child wrote before it ended is still in the pipes.
    pending += (try? messages.read(timeout: .seconds(2)))?.bytes ?? []
    for case .trace(let event) in takeMessages(stray: &stray) { trace.append(event) }
    recordBytes += (try? records.read(timeout: .seconds(2)))?.bytes ?? []
    errorBytes += (try? errors.read(timeout: .milliseconds(200)))?.bytes ?? []
    let death = ChildDeath(
      termination: ended, hung: hung, hangDetail: hangDetail,
      records: CrashRecord.parse(bytes: recordBytes),
      snapshot: recorder.snapshot(),
      standardError: String(decoding: errorBytes.suffix(65_536), as: UTF8.self),
      strayOutput: String(decoding: stray.prefix(1_000), as: UTF8.self),
      sanitizerReport: SanitizerRaceLog.lastInvocationReport(in: recorder.races))
    return .died(death, trace: trace)
  }

  /// The complete messages received so far; bytes that are not a message go to `stray`.
  private func takeMessages(stray: inout [UInt8]) -> [WorkerMessage] {
    guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
    let complete = pending[...lastNewline]
    pending.removeSubrange(...lastNewline)
    let decoder = JSONDecoder()
    return complete.split(separator: UInt8(ascii: "\n")).compactMap { line in
      if let message = try? decoder.decode(WorkerMessage.self, from: Data(line)) { return message }
      stray += line
      return nil
    }
  }
}

/// How long a child may go without progress before it is hung, and what its hang then means.
struct HangLimit: CustomStringConvertible {
  /// The stall, on a ``StallClock``, after which the child is hung.
  let stall: Duration
  /// The call in flight whose own timeout is the limit, or nil when the hang timeout is.
  let call: Scenario.Call?

  /// The limit while `inFlight`'s calls of `scenario` run: `hangTimeout`, or the shortest timeout of a call in flight.
  init(
    hangTimeout: Duration, callTimeouts: [String: Duration], inFlight: FlightRecorder.Snapshot,
    scenario: Scenario
  ) {
    let calls = scenario.allCalls
    let timed = inFlight.threads.compactMap { thread -> (Scenario.Call, Duration)? in
      guard let index = thread.operation, calls.indices.contains(index),
        let timeout = callTimeouts[calls[index].operation]
      else { return nil }
      return (calls[index], timeout)
    }
    if let shortest = timed.min(by: { $0.1 < $1.1 }), shortest.1 < hangTimeout {
      (stall, call) = (shortest.1, shortest.0)
    } else {
      (stall, call) = (hangTimeout, nil)
    }
  }

  var description: String {
    let counted = "counting only the time the machine did not keep the child from a CPU"
    guard let call else {
      return "no invocation ended for \(PlainNumber.text(stall)) s, \(counted)"
    }
    return
      "\(call) did not return within \(PlainNumber.text(stall)) s, its operation's timeout, \(counted)"
  }
}
