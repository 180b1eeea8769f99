import Synchronization

/// One of a workload's clients: the process it calls as, the call it has in flight, and the operations it recorded.
///
/// A client is a thread that makes one call at a time. When a call outlives the
/// operation timeout, the run's watchdog records it as unknown and *abandons* the thread
/// (its call may never return, and nothing can interrupt a synchronous call): the slot's
/// generation moves on, a new thread carries on as a new process, and the old thread,
/// should its call ever return, finds its generation gone and ends without recording.
final class ClientSlot: Sendable {
  /// A call on its way.
  struct InFlight {
    var call: MonotonicInstant
    var name: String
    var arguments: [Value]
    /// Cancels the task of an `async` call; nil for a synchronous one, which nothing can stop.
    var cancel: (@Sendable () -> Void)?
  }

  /// How a call ended.
  enum Outcome {
    /// It returned this value.
    case returned(Value)
    /// It threw an error that proves it had no effect (``RecordedHistory.DefiniteFailure``).
    case failed
    /// It threw any other error: its effect is unknown.
    case unknown
  }

  private struct State {
    /// Which thread may record: the one started for this generation.
    var generation = 0
    /// The process the slot's current thread calls as.
    var process: Int
    var inFlight: InFlight?
    /// Whether the current generation's thread still runs its loop.
    var threadRuns = true
    var operations: [RecordedHistory.Operation] = []
  }

  private let state: Mutex<State>

  init(process: Int) {
    state = Mutex(State(process: process))
  }

  /// Notes a call about to be made by generation `generation`'s thread; false when that thread was abandoned.
  func begin(_ generation: Int, _ inFlight: InFlight) -> Bool {
    state.withLock { state in
      guard state.generation == generation else { return false }
      state.inFlight = inFlight
      return true
    }
  }

  /// Gives the call in flight a way to cancel its task.
  func setCancel(_ generation: Int, _ cancel: @escaping @Sendable () -> Void) {
    state.withLock { state in
      if state.generation == generation { state.inFlight?.cancel = cancel }
    }
  }

  /// Records the end of the call in flight; false when generation `generation`'s thread was abandoned meanwhile.
  ///
  /// An unknown outcome retires the process, as the history format requires: the slot
  /// goes on as `nextProcess()`.
  func end(
    _ generation: Int, at end: MonotonicInstant, _ outcome: Outcome,
    nextProcess: () -> Int
  ) -> Bool {
    state.withLock { state in
      guard state.generation == generation, let call = state.inFlight else { return false }
      state.inFlight = nil
      var operation = RecordedHistory.Operation(
        process: .int(state.process), name: call.name, arguments: call.arguments,
        call: call.call.nanoseconds, return: end.nanoseconds)
      switch outcome {
      case .returned(let value): operation.result = value
      case .failed: operation.status = .fail
      case .unknown:
        operation.status = .info
        operation.return = nil
        state.process = nextProcess()
      }
      state.operations.append(operation)
      return true
    }
  }

  /// Notes that generation `generation`'s thread left its loop.
  func threadEnded(_ generation: Int) {
    state.withLock { state in
      if state.generation == generation { state.threadRuns = false }
    }
  }

  /// When the call in flight has run `timeout` or longer by `now`: records it as unknown, abandons its thread, cancels its task, and returns the new generation.
  func abandonIfOverdue(now: MonotonicInstant, timeout: Duration, nextProcess: () -> Int) -> Int? {
    let (cancel, generation): ((@Sendable () -> Void)?, Int?) = state.withLock { state in
      guard let call = state.inFlight, now - call.call >= timeout else { return (nil, nil) }
      state.inFlight = nil
      state.operations.append(
        RecordedHistory.Operation(
          process: .int(state.process), name: call.name, arguments: call.arguments,
          call: call.call.nanoseconds, return: nil, status: .info))
      state.process = nextProcess()
      state.generation += 1
      state.threadRuns = false
      return (call.cancel, state.generation)
    }
    cancel?()
    return generation
  }

  /// Notes that a new thread runs generation `generation`.
  func threadStarted(_ generation: Int) {
    state.withLock { state in
      if state.generation == generation { state.threadRuns = true }
    }
  }

  /// Whether the slot is done: no call in flight and no thread of the current generation running.
  var isIdle: Bool {
    state.withLock { $0.inFlight == nil && !$0.threadRuns }
  }

  /// Counts of the operations recorded so far: all, and those of unknown outcome.
  var counts: (all: Int, unknown: Int) {
    state.withLock { state in
      (state.operations.count, state.operations.count(where: { $0.status == .info }))
    }
  }

  /// The operations recorded, with calls still in flight as unknown: the slot's part of the history.
  var operations: [RecordedHistory.Operation] {
    state.withLock { state in
      var operations = state.operations
      if let call = state.inFlight {
        operations.append(
          RecordedHistory.Operation(
            process: .int(state.process), name: call.name, arguments: call.arguments,
            call: call.call.nanoseconds, return: nil, status: .info))
      }
      return operations
    }
  }
}
