import CRaceCheckSupport
import Dispatch
import RaceCheckEngine

#if canImport(Glibc)
  import Glibc
#endif

/// The probe's crashes and hangs, each the smallest program that shows one way a child dies.
enum Probe {
  /// What the probe can do, by the name given on its command line.
  enum Kind: String, CaseIterable {
    /// A Swift array index trap (SIGILL) on the main thread.
    case indexOutOfRange = "index-out-of-range"
    /// A force-unwrap of nil (SIGILL) on the main thread.
    case forceUnwrapNil = "force-unwrap-nil"
    /// An index trap inside a `DispatchQueue.global().async` block while main waits.
    case dispatchWorkerTrap = "dispatch-worker-trap"
    /// `abort()` (SIGABRT).
    case abort = "abort"
    /// A store through address 0x10 (SIGSEGV).
    case nullDeref = "null-deref"
    /// `q.sync { q.sync {} }`, which libdispatch turns into a trap on Linux.
    case syncOnCurrentQueue = "sync-on-current-queue"
    /// Unbounded recursion on a runner thread that has its own alternate signal stack (SIGSEGV).
    case stackOverflow = "stack-overflow"
    /// Two named threads in slots 1 and 2 and two dispatch workers blocked forever; main too.
    case hang = "hang"
    /// Prints what flight-recorder marks cost, in nanoseconds.
    case flightRecorderCost = "flight-recorder-cost"
  }

  /// Writes `message` to standard error and exits with `status`.
  static func fail(_ message: String, status: Int32) -> Never {
    let line = "racecheck-probe: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(status)
  }

  /// Installs crash capture, marks the flight recorder, and does what `kind` says.
  static func run(_ kind: Kind) {
    guard let reportDescriptor = environmentDescriptor("RACECHECK_REPORT_FD") else {
      fail("RACECHECK_REPORT_FD is not set", status: 64)
    }
    let recorder: FlightRecorder?
    do {
      recorder = try environmentDescriptor("RACECHECK_FLIGHT_RECORDER_FD").map {
        try FlightRecorder(mappingFileDescriptor: $0)
      }
      try CrashCapture.install(reportingTo: reportDescriptor, flightRecorder: recorder)
    } catch {
      fail("setup: \(error)", status: 70)
    }
    recorder?.beginInvocation(scenario: 3, invocation: 17)
    recorder?.registerThread(0)
    recorder?.beginOperation(thread: 0, index: 2)

    switch kind {
    case .indexOutOfRange:
      let numbers = opaque([1, 2, 3])
      print(numbers[opaque(5)])

    case .forceUnwrapNil:
      let missing: Int? = opaque(nil)
      print(missing!)

    case .dispatchWorkerTrap:
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        recorder?.registerThread(1)
        recorder?.beginOperation(thread: 1, index: 4)
        let numbers = opaque([1, 2, 3])
        print(numbers[opaque(7)])
        done.signal()
      }
      done.wait()

    case .abort:
      Glibc.abort()

    case .nullDeref:
      let pointer = UnsafeMutablePointer<Int>(bitPattern: opaque(0x10))!
      pointer.pointee = 1

    case .syncOnCurrentQueue:
      let queue = DispatchQueue(label: "racecheck.probe.serial")
      queue.sync { queue.sync { print("unreachable") } }

    case .stackOverflow:
      RunnerThread.start(name: "racecheck-1", slot: 1, operation: 3, recorder: recorder) {
        print(recurse(opaque(1)))
      }
      blockForever()

    case .hang:
      RunnerThread.start(name: "racecheck-1", slot: 1, operation: 5, recorder: recorder) {
        blockForever()
      }
      RunnerThread.start(name: "racecheck-2", slot: 2, operation: 6, recorder: recorder) {
        blockForever()
      }
      // Dispatch workers block SIGUSR1 but not SIGPROF: they must answer a stack request too.
      for _ in 0..<2 { DispatchQueue.global().async { blockForever() } }
      blockForever()

    case .flightRecorderCost:
      guard let recorder else {
        fail("flight-recorder-cost needs RACECHECK_FLIGHT_RECORDER_FD", status: 64)
      }
      measureCost(of: recorder)
    }
    fail("\(kind.rawValue) did not crash", status: 1)
  }

  /// Returns `value` through a call the optimizer cannot see through, so each crash happens at run time.
  @inline(never) static func opaque<T>(_ value: T) -> T { value }

  /// Recurses until the stack runs out; the array keeps each frame from being optimized away.
  @inline(never) static func recurse(_ depth: Int) -> Int {
    guard depth != 0 else { return 0 }
    var frame = [depth, depth]
    frame[1] = recurse(opaque(depth + 1))
    return frame[0] &+ frame[1]
  }

  /// Blocks the calling thread for good.
  static func blockForever() -> Never {
    let never = DispatchSemaphore(value: 0)
    while true { never.wait() }
  }

  /// The descriptor number in environment variable `name`, or nil when it is unset or not a number.
  static func environmentDescriptor(_ name: String) -> Int32? {
    guard let value = getenv(name) else { return nil }
    return Int32(String(cString: value))
  }

  /// Prints the cost of one begin/end operation pair and of one beginInvocation, in nanoseconds.
  static func measureCost(of recorder: FlightRecorder) -> Never {
    let rounds = 10_000_000
    let clock = ContinuousClock()
    let operations = clock.measure {
      for round in 0..<rounds {
        recorder.beginOperation(thread: 1, index: round)
        recorder.endOperation(thread: 1)
      }
    }
    let invocations = clock.measure {
      for round in 0..<rounds { recorder.beginInvocation(scenario: 1, invocation: round) }
    }
    func perRound(_ duration: Duration) -> Double {
      duration.fractionalNanoseconds / Double(rounds)
    }
    print("beginOperation+endOperation: \(perRound(operations)) ns")
    print("beginInvocation: \(perRound(invocations)) ns")
    exit(0)
  }
}

/// A runner-like thread: named, with its own alternate signal stack and a flight-recorder slot.
final class RunnerThread: Sendable {
  let name: String
  let slot: Int
  let operation: Int
  let recorder: FlightRecorder?
  let body: @Sendable () -> Void

  private init(
    name: String, slot: Int, operation: Int, recorder: FlightRecorder?,
    body: @escaping @Sendable () -> Void
  ) {
    self.name = name
    self.slot = slot
    self.operation = operation
    self.recorder = recorder
    self.body = body
  }

  /// Starts thread `name` in `slot`, which marks `operation` in flight and runs `body`.
  static func start(
    name: String, slot: Int, operation: Int, recorder: FlightRecorder?,
    body: @escaping @Sendable () -> Void
  ) {
    let box = Unmanaged.passRetained(
      RunnerThread(name: name, slot: slot, operation: operation, recorder: recorder, body: body))
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<RunnerThread>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, box.toOpaque())
    if result != 0 { Probe.fail("pthread_create: \(result)", status: 70) }
  }

  private func run() {
    rc_set_thread_name(name)
    do { try CrashCapture.prepareThread() } catch { Probe.fail("\(error)", status: 70) }
    recorder?.registerThread(slot)
    recorder?.beginOperation(thread: slot, index: operation)
    body()
  }
}
