import CRaceCheckInterposer
import Dispatch
import Foundation
import RaceCheckSync
import Synchronization

extension Operation where Model: HistoryModel {
  /// Creates an operation of a built-in model's vocabulary that delivers its result to a completion handler.
  ///
  /// The call returns when the subject calls the handler, with the value it delivered, as
  /// a caller that waits for it sees the operation: `append(_:completion:)` has taken
  /// effect when its completion runs. A handler called again is ignored.
  ///
  /// `perform` takes the subject and the arguments, and returns how to start the call
  /// with a handler:
  ///
  /// ```swift
  /// Operation("append", .int(in: 0...3)) { (array: AsyncArray, x: Int) in
  ///   { done in array.append(x, completion: done) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports, scenarios and repro files: the model's name for it, such as `"append"`, unless `vocabularyName` gives that.
  ///   - vocabularyName: The model's name for the operation when `name` is the subject's own, such as `"write"` for a register's `store`; by default `name`.
  ///   - arguments: One generator per parameter, in the vocabulary's order.
  ///   - timeout: How long a call may wait for its handler before it is a hang, in a check that
  ///     runs in this process; an isolated child reports a hang after ``Configuration/hangTimeout``,
  ///     counted while the child is not kept from a CPU.
  ///   - perform: Calls the operation on the subject, passing it the completion handler.
  public init<each Argument: ValueConvertible, Result: ValueConvertible>(
    _ name: String,
    as vocabularyName: String? = nil,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    completing perform:
      @escaping @Sendable (Subject, repeat each Argument) -> (
        @escaping @Sendable (Result) -> Void
      ) throws -> Void
  ) {
    self.init(
      name: name,
      vocabularyName: vocabularyName ?? name,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: true,
      perform: Self.waitingForHandler(name, timeout: timeout, perform),
      bind: Self.vocabularyStep(vocabularyName ?? name),
      validate: Self.validatesStep(
        vocabularyName ?? name, returning: Result.historyValueKinds, repeat (each Argument).self))
  }

  /// Creates an operation of a built-in model's vocabulary whose completion handler delivers nothing.
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports, scenarios and repro files: the model's name for it, such as `"append"`, unless `vocabularyName` gives that.
  ///   - vocabularyName: The model's name for the operation when `name` is the subject's own, such as `"write"` for a register's `store`; by default `name`.
  ///   - arguments: One generator per parameter, in the vocabulary's order.
  ///   - timeout: How long a call may wait for its handler before it is a hang, in a check that
  ///     runs in this process; an isolated child reports a hang after ``Configuration/hangTimeout``,
  ///     counted while the child is not kept from a CPU.
  ///   - perform: Calls the operation on the subject, passing it the completion handler.
  public init<each Argument: ValueConvertible>(
    _ name: String,
    as vocabularyName: String? = nil,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    completing perform:
      @escaping @Sendable (Subject, repeat each Argument) -> (
        @escaping @Sendable () -> Void
      ) throws -> Void
  ) {
    self.init(
      name: name,
      vocabularyName: vocabularyName ?? name,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: false,
      perform: Self.waitingForHandler(name, timeout: timeout, Self.deliveringNull(perform)),
      bind: Self.vocabularyStep(vocabularyName ?? name),
      validate: Self.validatesStep(
        vocabularyName ?? name, returning: .null, repeat (each Argument).self))
  }
}

extension Operation {
  /// Creates an operation that delivers its result to a completion handler, with its model-side counterpart.
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports.
  ///   - arguments: One generator per parameter of `perform` and `model`.
  ///   - timeout: How long a call may wait for its handler before it is a hang, in a check that
  ///     runs in this process; an isolated child reports a hang after ``Configuration/hangTimeout``,
  ///     counted while the child is not kept from a CPU.
  ///   - perform: Calls the operation on the subject, passing it the completion handler.
  ///   - model: Applies the operation to the sequential model and returns what it expects.
  public init<
    each Argument: ValueConvertible, Result: ValueConvertible, ModelResult: ValueConvertible
  >(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    completing perform:
      @escaping @Sendable (Subject, repeat each Argument) -> (
        @escaping @Sendable (Result) -> Void
      ) throws -> Void,
    model: @escaping @Sendable (inout Model, repeat each Argument) -> ModelResult
  ) {
    self.init(
      name, repeat each arguments, returning: Result.historyValueKinds,
      recordedPerform: Self.waitingForHandler(name, timeout: timeout, perform), model: model)
  }

  /// Creates an operation whose completion handler delivers nothing, with its model-side counterpart.
  ///
  /// ```swift
  /// Operation("increment", completing: { (counter: Counter) in { done in counter.increment(done) } },
  ///           model: { (count: inout Int) in count += 1 })
  /// ```
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports.
  ///   - arguments: One generator per parameter of `perform` and `model`.
  ///   - timeout: How long a call may wait for its handler before it is a hang, in a check that
  ///     runs in this process; an isolated child reports a hang after ``Configuration/hangTimeout``,
  ///     counted while the child is not kept from a CPU.
  ///   - perform: Calls the operation on the subject, passing it the completion handler.
  ///   - model: Applies the operation to the sequential model.
  public init<each Argument: ValueConvertible>(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    completing perform:
      @escaping @Sendable (Subject, repeat each Argument) -> (
        @escaping @Sendable () -> Void
      ) throws -> Void,
    model: @escaping @Sendable (inout Model, repeat each Argument) -> Void
  ) {
    self.init(
      name, repeat each arguments,
      recordedPerform: Self.waitingForHandler(name, timeout: timeout, Self.deliveringNull(perform)),
      model: model)
  }

  /// The subject's side of an operation with a completion handler: starts the call, then waits for the handler's first value.
  static func waitingForHandler<each Argument: ValueConvertible, Result: ValueConvertible>(
    _ name: String, timeout: Duration,
    _ start:
      @escaping @Sendable (Subject, repeat each Argument) -> (
        @escaping @Sendable (Result) -> Void
      ) throws -> Void
  ) -> @Sendable (Subject, [Value]) throws -> Value {
    let wait = CompletionWait()
    return { subject, values in
      var decoder = ArgumentDecoder(operation: name, arguments: values)
      return try wait.value(of: Scenario.Call(name, values), timeout: timeout) {
        (done: @escaping @Sendable (Result) -> Void) in
        try start(subject, repeat try decoder.next((each Argument).self))(done)
      }
    }
  }

  /// A call whose handler delivers nothing, as one whose handler delivers `null`, so that one wait serves both.
  static func deliveringNull<each Argument: ValueConvertible>(
    _ start:
      @escaping @Sendable (Subject, repeat each Argument) -> (
        @escaping @Sendable () -> Void
      ) throws -> Void
  )
    -> @Sendable (Subject, repeat each Argument) -> (@escaping @Sendable (Value) -> Void) throws ->
    Void
  {
    { (subject: Subject, argument: repeat each Argument) in
      let begin = start(subject, repeat each argument)
      return { done in try begin({ done(.null) }) }
    }
  }
}

/// Waits for calls' completion handlers and hands over the values they deliver, for one operation.
///
/// Under the scheduler the wait is a scheduling point, and nothing else here is: the
/// delivered value is kept in a `Mutex`, which the scheduler does not see, and semaphores
/// are reused from a pool, so that the primitives a schedule names (`semaphore #1`) are
/// the same from one run of it to the next, whatever addresses the allocator hands out.
final class CompletionWait: Sendable {
  private let idle = Mutex<[DispatchSemaphore]>([])

  /// Runs `start` with a handler and returns the value the handler delivers, once it is called.
  ///
  /// Under the scheduler the wait has no time limit: a handler that never comes leaves
  /// the schedule deadlocked, which it reports. In an isolated child it has none either: the
  /// parent applies the call's timeout on its ``StallClock``, so that a busy machine does not
  /// make a slow call a hang, and takes every thread's stack. Elsewhere `timeout` ends the
  /// wait with a ``CompletionTimeout``, which the runner reports as the call's hang.
  func value<Result: ValueConvertible>(
    of call: Scenario.Call, timeout: Duration,
    _ start: (@escaping @Sendable (Result) -> Void) throws -> Void
  ) throws -> Value {
    let delivered = idle.withLock { $0.popLast() } ?? DispatchSemaphore(value: 0)
    let delivery = Delivery()
    try start { result in
      if delivery.keep(result.historyValue) { delivered.signal() }
    }
    if rc_interposer_mode() == RC_MODE_SUBJECT,
      let scheduler = SchedulerHook.active as? ControlledScheduler
    {
      scheduler.waitingForReturn(of: call.description) { delivered.wait() }
    } else if rc_interposer_mode() == RC_MODE_SUBJECT || Self.waitsForTheParent {
      delivered.wait()
    } else if delivered.wait(timeout: .now() + timeout.dispatchInterval)
      == .timedOut
    {
      // A handler that comes later signals this semaphore: it is not reused.
      throw CompletionTimeout(call: call, timeout: timeout)
    }
    idle.withLock { $0.append(delivered) }
    return delivery.value ?? .null
  }

  /// Whether this process is an isolated child, whose parent decides when a call is a hang.
  private static let waitsForTheParent = WorkerJob.current != nil

  /// The first value a call's handler delivered.
  private final class Delivery: Sendable {
    private let first = Mutex<Value?>(nil)

    /// Keeps `value` if it is the first delivered; says whether it was.
    func keep(_ value: Value) -> Bool {
      first.withLock { kept in
        guard kept == nil else { return false }
        kept = value
        return true
      }
    }

    var value: Value? { first.withLock { $0 } }
  }
}

/// A call did not return within its timeout: its completion handler was not called, or its `async` call did not end.
package struct CompletionTimeout: Error, CustomStringConvertible, Sendable {
  /// The call that never returned.
  package var call: Scenario.Call
  /// How long it waited.
  package var timeout: Duration
  /// Whether the call is `async` (awaited), not one with a completion handler.
  package var awaited = false

  package var description: String {
    awaited
      ? "\(call) did not return within \(PlainNumber.text(timeout)) s"
      : "the completion handler of \(call) was not called within \(PlainNumber.text(timeout)) s"
  }
}
