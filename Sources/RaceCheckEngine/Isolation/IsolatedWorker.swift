import CRaceCheckInterposer
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The child's main: serves the parent's requests and exits, when this process is a worker.
package enum IsolatedWorker {
  /// Serves the worker job and exits if this process was started as a worker; returns otherwise.
  ///
  /// Call it first thing in a program that offers isolation, before anything else starts threads.
  package static func runIfRequested(targets: [Target]) {
    guard let job = currentJob() else { return }
    guard let target = targets.first(where: { $0.name == job.target }) else {
      Console.printError("racecheck worker: no target '\(job.target)' in this program")
      exit(70)
    }
    run(job, on: target.checkable)
  }

  /// The job this process was started for, nil when it is not a worker; exits when the job cannot be read.
  package static func currentJob() -> WorkerJob? {
    guard ProcessInfo.processInfo.environment[WorkerJob.environmentKey] != nil else { return nil }
    guard let job = WorkerJob.current else {
      Console.printError("racecheck worker: the job in \(WorkerJob.environmentKey) cannot be read")
      exit(70)
    }
    return job
  }

  /// Serves `job`'s requests on `checkable` with the crash handler installed, then exits when the parent closes the requests channel.
  ///
  /// Everything that does not depend on the check's configuration happens first; then the
  /// worker waits for the configuration, the channel's first line. A spare started ahead of
  /// its check (see ``WorkerPool``) waits there, booted; one never used reads end-of-file
  /// and exits.
  static func run(_ job: WorkerJob, on checkable: some Checkable) -> Never {
    // An interrupt from the terminal reaches the whole process group; the parent decides what it means.
    signal(SIGINT, SIG_IGN)
    endWithParent(job.parent)
    do {
      let recorder = try FlightRecorder(mappingFileDescriptor: WorkerJob.recorderDescriptor)
      try CrashCapture.install(reportingTo: WorkerJob.reportDescriptor, flightRecorder: recorder)
      // A race report made just before a crash must outlive the child.
      rc_sanitizer_use_log(recorder.races)
      let link = WorkerLink(recorder: recorder, messages: WorkerJob.messagesDescriptor)
      var lines = RequestLines(descriptor: WorkerJob.requestsDescriptor)
      guard let first = lines.next() else { exit(0) }
      guard let configuration = try? JSONDecoder().decode(Configuration.self, from: Data(first))
      else {
        Console.printError("racecheck worker: the configuration cannot be read")
        exit(70)
      }
      let serving = UncheckedBox(
        (
          runner: checkable.spec.makeRunner(configuration, observer: link, interruption: nil),
          link: link, lines: lines
        ))
      // The main thread serves the main queue meanwhile, so that `@MainActor` code and
      // `DispatchQueue.main` run in the child as in an app.
      MainQueueService.serve {
        serveRequests(serving.value.runner, link: serving.value.link, lines: serving.value.lines)
      }
      exit(0)
    } catch {
      Console.printError("racecheck worker: \(error)")
      exit(70)
    }
  }

  /// Runs each request the parent sends and sends back its result, until the parent closes the channel.
  private static func serveRequests(
    _ runner: any ScenarioRunning, link: WorkerLink, lines: RequestLines
  ) {
    let decoder = JSONDecoder()
    for line in lines {
      guard let request = try? decoder.decode(RunRequest.self, from: Data(line)) else {
        Console.printError("racecheck worker: a request cannot be read")
        exit(70)
      }
      do {
        link.send(.result(try runner.run(request)))
      } catch {
        link.send(.failed(error))
      }
    }
  }

  /// Ends this process within a fraction of a second of its parent's end, whatever the code under test is doing.
  private static func endWithParent(_ parent: Int32) {
    guard parent > 0 else { return }
    let watcher = Thread {
      while getppid() == parent { usleep(100_000) }
      _exit(70)
    }
    watcher.name = "racecheck-parent-watch"
    watcher.start()
  }
}

/// The lines read from a descriptor until end-of-file, each without its newline.
private struct RequestLines: Sequence, IteratorProtocol {
  let descriptor: Int32
  private var buffered: [UInt8] = []

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  mutating func next() -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffered[..<newline])
        buffered.removeSubrange(...newline)
        return line
      }
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffered += chunk[..<count]
    }
  }
}
