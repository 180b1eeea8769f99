import Foundation
import Synchronization

/// One run of a ``Workload``: its client threads, the watchdog that retires overdue calls, the nemesis, and the history they record.
///
/// The calling thread is the watchdog. It wakes every ``tick``, records a call that has
/// outlived the timeout as unknown and gives its client a new thread (``ClientSlot``),
/// stops the clients at the limit or on an interruption, and then waits until every call
/// has ended or timed out.
final class WorkloadRun<Subject, Model: HistoryModel>: Sendable {
  private let workload: Workload<Subject, Model>
  private let subject: Shared<Subject>
  private let slots: [ClientSlot]
  private let stop = StopSignal()
  private let issued = Atomic<Int>(0)
  private let processes: Atomic<Int>
  private let started = MonotonicInstant.now()
  /// Each operation's index, repeated by its weight: a uniform draw from it draws by weight.
  private let draws: [Int]
  /// How far a workload's generators may range: as far as they go (a scenario's breadth starts narrow).
  private static var breadth: Int { Int(Int32.max) }

  init(_ workload: Workload<Subject, Model>) {
    self.workload = workload
    subject = Shared(workload.spec.make())
    slots = (0..<workload.configuration.clients).map { ClientSlot(process: $0) }
    processes = Atomic(workload.configuration.clients)
    draws = workload.spec.operations.indices.flatMap { index in
      Array(
        repeating: index,
        count: workload.configuration.weights[workload.spec.operations[index].name] ?? 1)
    }
  }

  /// The watchdog's period: short against the timeout, so an overdue call is retired soon after its time.
  private var tick: Duration {
    min(max(workload.configuration.operationTimeout / 10, .milliseconds(1)), .milliseconds(50))
  }

  /// Runs the clients and the nemesis until the limit, an interruption or a stop, and returns the history.
  ///
  /// - Parameters:
  ///   - interruption: Stops the clients when it fires; the history so far is kept.
  ///   - progress: Told how far the run got, a few times a second.
  /// - Returns: The history, its times counted from the start, and how long the clients ran.
  func perform(
    interruption: Interruption?, progress: (@Sendable (WorkloadProgress) -> Void)?
  ) -> (history: RecordedHistory, elapsed: Duration) {
    let nemesis = workload.configuration.nemesis.map {
      NemesisRun($0, seed: workload.configuration.seed, started: started, stop: stop)
    }
    let nemesisDone = nemesis.map { nemesis in Self.startThread(name: "nemesis") { nemesis.run() } }
    for (index, slot) in slots.enumerated() { startClient(slot, index: index, generation: 0) }
    let deadline: MonotonicInstant? =
      if case .duration(let duration) = workload.configuration.limit { started + duration } else {
        nil
      }
    var reported = started
    while true {
      let now = MonotonicInstant.now()
      if let deadline, now >= deadline { stop.set() }
      if interruption?.signal != nil { stop.set() }
      for (index, slot) in slots.enumerated() {
        if let generation = slot.abandonIfOverdue(
          now: now, timeout: workload.configuration.operationTimeout, nextProcess: nextProcess),
          !stop.isSet
        {
          startClient(slot, index: index, generation: generation)
        }
      }
      if stop.isSet, slots.allSatisfy(\.isIdle) { break }
      if let progress, now - reported >= .milliseconds(250) {
        reported = now
        progress(progressNow(now, faults: nemesis?.faults.count ?? 0))
      }
      var wake = now + tick
      if let deadline, deadline > now, deadline < wake { wake = deadline }
      if stop.isSet {
        Thread.sleep(forTimeInterval: tick.seconds)
      } else {
        stop.wait(until: wake)
      }
    }
    let elapsed = MonotonicInstant.now() - started
    nemesisDone?.wait()
    let origin = started.nanoseconds
    let operations = slots.flatMap(\.operations).map { operation in
      var shifted = operation
      shifted.call -= origin
      shifted.return = operation.return.map { $0 - origin }
      return shifted
    }.sorted { ($0.call, $0.process.intValue ?? 0) < ($1.call, $1.process.intValue ?? 0) }
    let faults = (nemesis?.faults ?? []).map { fault in
      var shifted = fault
      shifted.start -= origin
      shifted.end = fault.end.map { $0 - origin }
      return shifted
    }
    let history = RecordedHistory(
      model: Model.name, initial: workload.spec.model.state,
      meta: .object([
        "workload": .string(workload.spec.name), "clients": .int(workload.configuration.clients),
        "seed": .int(Int(truncatingIfNeeded: workload.configuration.seed)),
      ]),
      operations: operations, faults: faults)
    return (history, elapsed)
  }

  private func nextProcess() -> Int {
    processes.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  private func progressNow(_ now: MonotonicInstant, faults: Int) -> WorkloadProgress {
    let counts = slots.map(\.counts)
    return WorkloadProgress(
      elapsed: now - started, operations: counts.map(\.all).reduce(0, +),
      unknown: counts.map(\.unknown).reduce(0, +), faults: faults)
  }

  /// Starts the thread that runs client `index`'s calls as generation `generation`.
  private func startClient(_ slot: ClientSlot, index: Int, generation: Int) {
    slot.threadStarted(generation)
    // Each generation draws from its own stream, so a retired client's successor does not
    // repeat its calls.
    let seed = SplitMix64.derive(
      SplitMix64.derive(workload.configuration.seed, UInt64(index)), UInt64(generation))
    _ = Self.startThread(name: "workload client \(index)") { [self] in
      runClient(slot, generation: generation, seed: seed)
    }
  }

  /// A client's loop: one call at a time until the stop, or until the watchdog abandons it.
  private func runClient(_ slot: ClientSlot, generation: Int, seed: UInt64) {
    defer { slot.threadEnded(generation) }
    var random: any RandomNumberGenerator = SplitMix64(seed: seed)
    let operations = workload.spec.operations
    while !stop.isSet {
      if case .operations(let count) = workload.configuration.limit,
        issued.wrappingAdd(1, ordering: .relaxed).oldValue >= count
      {
        stop.set()
        return
      }
      let operation = operations[draws[random.below(draws.count)]]
      let arguments = operation.generators.map { $0.draw(&random, Self.breadth) }
      let inFlight = ClientSlot.InFlight(
        call: .now(), name: operation.vocabularyName ?? operation.name, arguments: arguments)
      guard slot.begin(generation, inFlight) else { return }
      let outcome = call(operation, arguments, slot: slot, generation: generation)
      guard slot.end(generation, at: .now(), outcome, nextProcess: nextProcess) else { return }
    }
  }

  /// Makes one call on the subject and says how it ended; an `async` call runs in a task the watchdog may cancel.
  private func call(
    _ operation: Operation<Subject, Model>, _ arguments: [Value], slot: ClientSlot,
    generation: Int
  ) -> ClientSlot.Outcome {
    let result: Result<Value, any Error>
    if let asyncCall = operation.asyncCall {
      let finished = TaskResult()
      let subject = subject
      let task = Task {
        do {
          finished.set(.success(try await asyncCall.run(subject.value, arguments)))
        } catch {
          finished.set(.failure(error))
        }
      }
      slot.setCancel(generation) { task.cancel() }
      result = finished.wait()
    } else {
      result = Result { try operation.perform(subject.value, arguments) }
    }
    switch result {
    case .success(let value): return .returned(value)
    case .failure(is any RecordedHistory.DefiniteFailure):
      return .failed
    case .failure: return .unknown
    }
  }

  /// Starts a detached thread running `body`; the returned semaphore is signalled when it ends.
  @discardableResult
  private static func startThread(name: String, _ body: @escaping @Sendable () -> Void)
    -> DispatchSemaphore
  {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      body()
      done.signal()
    }
    thread.name = name
    thread.start()
    return done
  }
}

/// How far a workload run has got, for a status line.
package struct WorkloadProgress: Sendable {
  /// How long it has run.
  package var elapsed: Duration
  /// The calls recorded so far.
  package var operations: Int
  /// Those of unknown outcome.
  package var unknown: Int
  /// The faults begun so far.
  package var faults: Int
}

/// The result of an `async` call, handed from its task to the client thread that waits for it.
private final class TaskResult: Sendable {
  private let result = Mutex<Result<Value, any Error>?>(nil)
  private let done = DispatchSemaphore(value: 0)

  func set(_ value: Result<Value, any Error>) {
    result.withLock { $0 = value }
    done.signal()
  }

  func wait() -> Result<Value, any Error> {
    done.wait()
    return result.withLock { $0! }
  }
}
