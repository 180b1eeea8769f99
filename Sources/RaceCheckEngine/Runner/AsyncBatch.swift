import Synchronization

/// A part of an invocation whose calls are all `async`, made from one task in order, as one caller awaiting each in turn makes them.
///
/// A call in a task of its own costs a task and a wake of the thread that waits for it,
/// more than most calls themselves; a thread's column, or the init or post part, made from
/// one task costs one of each. Each call is still timed on its own: its call time is taken
/// before its `await`, its return time after. Under an ``AsyncProbe`` the task records its
/// hops for the call it is making and each call goes through the probe's gate, so that a
/// probe sees the failures of the interleavings a plain run makes. Only in stress mode:
/// the scheduler follows each call's own task.
struct AsyncBatch<Subject> {
  /// One call of the part: what to await and its recorded arguments.
  struct Call {
    let call: AsyncCall<Subject>
    let arguments: [Value]
  }

  /// What the part's calls recorded, up to the one that threw, if one did.
  struct Outcome {
    var callTimes: [Int64]
    var returnTimes: [Int64]
    var results: [Value]
    /// The call that threw, by its offset in the part, and what it threw; nil when every call returned.
    var thrown: (offset: Int, error: any Error)?
  }

  let calls: [Call]
  /// The run's calls, under a probe: its hops are recorded and its gate kept.
  let probe: AsyncCalls?

  /// The part's calls, or nil when one of them is not `async`; `probe` is the run's calls when a probe watches them.
  init?(_ calls: [AsyncCall<Subject>?], arguments: [[Value]], probe: AsyncCalls? = nil) {
    var batch: [Call] = []
    for (call, arguments) in zip(calls, arguments) {
      guard let call else { return nil }
      batch.append(Call(call: call, arguments: arguments))
    }
    self.calls = batch
    self.probe = probe
  }

  /// Makes the calls on `subject` from one task and waits for it; `before` and `after` run around each call, on the task, with its offset.
  ///
  /// `first` is the history index of the part's first call, which a probe's hops name.
  /// The wait is as long as the calls' timeouts together; a call still running then ends
  /// the part with a ``CompletionTimeout`` that names it.
  func run(
    on subject: Subject, waiting wait: CompletionWait,
    first firstIndex: Int = 0,
    before: @escaping @Sendable (Int) -> Void = { _ in },
    after: @escaping @Sendable (Int) -> Void = { _ in }
  ) -> Outcome {
    let recorded = Recorded(count: calls.count)
    guard let first = calls.first else { return recorded.outcome(upTo: 0, thrown: nil) }
    let subject = Shared(subject)
    let calls = Shared(calls)
    let timeout = calls.value.reduce(Duration.zero) { $0 + $1.call.timeout }
    // A job arrives while the call that left the actor has not yet returned, so the calls
    // returned so far number the one in flight.
    let executor = probe.map { probe in
      CallExecutor(batchOf: probe) {
        firstIndex + min(recorded.finished.load(ordering: .relaxed), recorded.callTimes.count - 1)
      }
    }
    let probe = probe
    let gated = probe?.gates == true ? probe : nil
    do {
      _ = try wait.value(
        of: Scenario.Call(first.call.name, first.arguments), timeout: timeout, on: executor
      ) {
        for (offset, call) in calls.value.enumerated() {
          before(offset)
          probe?.begins(call: firstIndex + offset)
          if let gated { await gated.enter(call.call.name) }
          recorded.callTimes[offset] = MonotonicInstant.now().nanoseconds
          do {
            defer { gated?.leave(call.call.name) }
            recorded.results[offset] = try await call.call.run(subject.value, call.arguments)
          } catch {
            recorded.thrown = (offset, error)
            return .null
          }
          recorded.returnTimes[offset] = MonotonicInstant.now().nanoseconds
          recorded.finished.store(offset + 1, ordering: .releasing)
          after(offset)
        }
        return .null
      }
    } catch {
      // The task still runs: only the calls it finished are read, and the buffers stay
      // alive as long as the task holds them.
      let offset = recorded.finished.load(ordering: .acquiring)
      let call = calls.value[offset]
      let timedOut = CompletionTimeout(
        call: Scenario.Call(call.call.name, call.arguments), timeout: timeout, awaited: true)
      return recorded.outcome(upTo: offset, thrown: (offset, timedOut))
    }
    return recorded.outcome(
      upTo: recorded.thrown?.offset ?? calls.value.count, thrown: recorded.thrown)
  }

  /// The task's records: written by the task, read after the wait or, on a timeout, up to the calls it finished.
  private final class Recorded: @unchecked Sendable {
    // @unchecked Sendable: read after the task's wait, or below `finished` (atomic) on a timeout.
    let callTimes: UnsafeMutableBufferPointer<Int64>
    let returnTimes: UnsafeMutableBufferPointer<Int64>
    let results: UnsafeMutableBufferPointer<Value>
    var thrown: (offset: Int, error: any Error)?
    /// The calls that returned, published for a wait that times out.
    let finished = Atomic<Int>(0)

    init(count: Int) {
      callTimes = .allocate(capacity: count)
      callTimes.initialize(repeating: 0)
      returnTimes = .allocate(capacity: count)
      returnTimes.initialize(repeating: 0)
      results = .allocate(capacity: count)
      results.initialize(repeating: .null)
    }

    deinit {
      callTimes.deallocate()
      returnTimes.deallocate()
      _ = results.deinitialize()
      results.deallocate()
    }

    /// The records of the first `count` calls, and the call that threw.
    func outcome(upTo count: Int, thrown: (offset: Int, error: any Error)?) -> Outcome {
      let total = callTimes.count
      var outcome = Outcome(
        callTimes: Array(repeating: 0, count: total),
        returnTimes: Array(repeating: 0, count: total),
        results: Array(repeating: .null, count: total), thrown: thrown)
      for offset in 0..<min(count, total) {
        outcome.callTimes[offset] = callTimes[offset]
        outcome.returnTimes[offset] = returnTimes[offset]
        outcome.results[offset] = results[offset]
      }
      return outcome
    }
  }
}
