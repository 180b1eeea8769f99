import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One worker child, as its parent sees it: started once, then sent requests until it dies or is closed.
///
/// The child announces every scenario and keeps the shared flight recorder current, so when
/// it dies the parent knows the invocation and the calls in flight, and reads the crashing
/// thread's stack from the report pipe. A child that makes no progress for the hang timeout
/// is hung: the parent asks every thread for its stack, then kills it.
final class WorkerProcess {
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
  }

  private let child: ChildProcess
  private let recorder: FlightRecorder
  private let messages: ReportPipe
  private let records: ReportPipe
  private let errors: ReportPipe
  private let requests: ReportPipe
  private var pending: [UInt8] = []

  /// Starts `command` as a worker for `job`.
  init(command: WorkerCommand, job: WorkerJob) throws(SystemCallError) {
    recorder = try FlightRecorder()
    messages = try ReportPipe()
    records = try ReportPipe()
    errors = try ReportPipe()
    requests = try ReportPipe()
    let silence = open("/dev/null", O_WRONLY | O_CLOEXEC)
    guard silence >= 0 else { throw .fromErrno("open /dev/null") }
    defer { Glibc.close(silence) }
    child = try ChildProcess.spawn(
      executable: command.executable, arguments: command.arguments,
      environment: [
        WorkerJob.environmentKey: job.environmentValue, "SWIFT_BACKTRACE": "enable=no",
        "SWIFT_DETERMINISTIC_HASHING": "1",
      ],
      fileDescriptors: [
        WorkerJob.messagesDescriptor: messages.writeEnd,
        WorkerJob.reportDescriptor: records.writeEnd,
        WorkerJob.recorderDescriptor: recorder.fileDescriptor,
        WorkerJob.requestsDescriptor: requests.readEnd,
        // A re-launched test binary prints its framework's progress, which is not the report.
        STDOUT_FILENO: silence,
        STDERR_FILENO: errors.writeEnd,
      ])
    messages.closeWriteEnd()
    records.closeWriteEnd()
    errors.closeWriteEnd()
  }

  /// Ends the child: closing its requests pipe tells it to exit; it is killed if it does not.
  func close() {
    requests.closeWriteEnd()
    for _ in 0..<20 {
      if (try? child.poll()) != nil { return }
      usleep(10_000)
    }
    try? child.kill(SIGKILL)
    _ = try? child.wait()
  }

  /// Sends `request` and watches the child until it answers, dies, hangs, or the check is interrupted.
  func serve(_ request: RunRequest, hangTimeout: Duration, interruption: Interruption?) -> Answer {
    var line = (try? JSONEncoder().encode(request)) ?? Data()
    line.append(UInt8(ascii: "\n"))
    let sent = line.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(requests.writeEnd, bytes.baseAddress! + offset, bytes.count - offset)
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
    var trace: [InterleavingTrace.Event] = []
    var errorBytes: [UInt8] = []
    var stray: [UInt8] = []
    var progress = recorder.snapshot()
    var lastProgress = MonotonicInstant.now()
    var hung = false
    var termination: ChildProcess.Termination?
    while sent {
      // Back as soon as a whole message is in, so that a short request costs no more than its run.
      pending +=
        (try? messages.read(timeout: .milliseconds(50)) { $0.contains(UInt8(ascii: "\n")) })?
        .bytes ?? []
      errorBytes += ((try? errors.read(timeout: .milliseconds(1)))?.bytes ?? []).prefix(65_536)
      for message in takeMessages(stray: &stray) {
        switch message {
        case .trace(let event): trace.append(event)
        case .result(let result): return .result(result, trace: trace)
        case .failed(let error): return .failed(error)
        case .scenario: break
        }
      }
      termination = try? child.poll()
      if termination != nil { break }
      if let signal = interruption?.signal {
        try? child.kill(SIGKILL)
        _ = try? child.wait()
        return .interrupted(signal: signal)
      }
      let now = recorder.snapshot()
      if now.scenario != progress.scenario || now.invocation != progress.invocation {
        progress = now
        lastProgress = MonotonicInstant.now()
      } else if lastProgress.elapsed > hangTimeout {
        hung = true
        _ = try? CrashCapture.requestStacks(fromProcess: child.id)
        break
      }
    }
    var recordBytes: [UInt8] = []
    if hung {
      recordBytes += (try? records.read(timeout: .seconds(1)))?.bytes ?? []
      try? child.kill(SIGKILL)
    }
    let ended = termination ?? (try? child.wait()) ?? .signaled(SIGKILL)
    // Whatever the child wrote before it ended is still in the pipes.
    pending += (try? messages.read(timeout: .seconds(2)))?.bytes ?? []
    for case .trace(let event) in takeMessages(stray: &stray) { trace.append(event) }
    recordBytes += (try? records.read(timeout: .seconds(2)))?.bytes ?? []
    errorBytes += (try? errors.read(timeout: .milliseconds(200)))?.bytes ?? []
    let death = ChildDeath(
      termination: ended, hung: hung, records: CrashRecord.parse(bytes: recordBytes),
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
