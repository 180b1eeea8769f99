import CRaceCheckInterposer
import Dispatch
import Foundation

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
  ///   - name: The model's name for the operation, such as `"append"`.
  ///   - arguments: One generator per parameter, in the vocabulary's order.
  ///   - timeout: How long to wait for the handler outside an isolated child, which reports
  ///     a handler that never comes as a hang after ``Configuration/hangTimeout``.
  ///   - perform: Calls the operation on the subject, passing it the completion handler.
  public init<each Argument: ValueConvertible, Result: ValueConvertible>(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    completing perform:
      @escaping @Sendable (Subject, repeat each Argument) -> (
        @escaping @Sendable (Result) -> Void
      ) throws -> Void
  ) {
    self.init(
      name: name,
      mapsToVocabulary: true,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: true,
      perform: { subject, values in
        var decoder = ArgumentDecoder(operation: name, arguments: values)
        let call = Scenario.Call(name, values)
        return try CompletionWait<Result>.value(of: call, timeout: timeout) { done in
          try perform(subject, repeat try decoder.next((each Argument).self))(done)
        }
      },
      bind: Self.vocabularyStep(name),
      validate: Self.validatesStep(
        name, returning: Result.historyValueKinds, repeat (each Argument).self))
  }

  /// Creates an operation of a built-in model's vocabulary whose completion handler delivers nothing.
  ///
  /// - Parameters:
  ///   - name: The model's name for the operation, such as `"append"`.
  ///   - arguments: One generator per parameter, in the vocabulary's order.
  ///   - timeout: How long to wait for the handler outside an isolated child.
  ///   - perform: Calls the operation on the subject, passing it the completion handler.
  public init<each Argument: ValueConvertible>(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    completing perform:
      @escaping @Sendable (Subject, repeat each Argument) -> (
        @escaping @Sendable () -> Void
      ) throws -> Void
  ) {
    self.init(
      name: name,
      mapsToVocabulary: true,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: false,
      perform: { subject, values in
        var decoder = ArgumentDecoder(operation: name, arguments: values)
        let call = Scenario.Call(name, values)
        _ = try CompletionWait<Value>.value(of: call, timeout: timeout) { done in
          try perform(subject, repeat try decoder.next((each Argument).self))({ done(.null) })
        }
        return .null
      },
      bind: Self.vocabularyStep(name),
      validate: Self.validatesStep(name, returning: .null, repeat (each Argument).self))
  }
}

extension Operation {
  /// Creates an operation that delivers its result to a completion handler, with its model-side counterpart.
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports.
  ///   - arguments: One generator per parameter of `perform` and `model`.
  ///   - timeout: How long to wait for the handler outside an isolated child.
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
    let typed = Operation(
      name, repeat each arguments,
      perform: { (_: Subject, _: repeat each Argument) -> Value in .null }, model: model)
    self.init(
      name: name,
      generators: typed.generators,
      passesFreshReferences: typed.passesFreshReferences,
      returnsValue: true,
      perform: { subject, values in
        var decoder = ArgumentDecoder(operation: name, arguments: values)
        let call = Scenario.Call(name, values)
        return try CompletionWait<Result>.value(of: call, timeout: timeout) { done in
          try perform(subject, repeat try decoder.next((each Argument).self))(done)
        }
      },
      bind: typed.bind,
      validate: Self.decodes(
        name, returning: Result.historyValueKinds, matching: ModelResult.historyValueKinds,
        repeat (each Argument).self))
  }
}

/// Waits for one call's completion handler and keeps the value it delivers.
final class CompletionWait<Result: ValueConvertible>: @unchecked Sendable {
  private let lock = NSLock()
  private let delivered = DispatchSemaphore(value: 0)
  private var value: Value?

  private init() {}

  /// Runs `start` with a handler and returns the value the handler delivers, once it is called.
  ///
  /// Under the scheduler the wait is a scheduling point with no time limit: a handler
  /// that never comes leaves the schedule deadlocked, which it reports. In an isolated
  /// child, the hang timeout ends a wait first; elsewhere `timeout` does, with an error.
  static func value(
    of call: Scenario.Call, timeout: Duration,
    _ start: (@escaping @Sendable (Result) -> Void) throws -> Void
  ) throws -> Value {
    let wait = CompletionWait()
    try start { result in wait.deliver(result.historyValue) }
    if rc_interposer_mode() == RC_MODE_SUBJECT {
      wait.delivered.wait()
    } else if wait.delivered.wait(timeout: .now() + .nanoseconds(Int(timeout.nanoseconds)))
      == .timedOut
    {
      throw CompletionTimeout(call: call, timeout: timeout)
    }
    return wait.lock.withLock { wait.value ?? .null }
  }

  private func deliver(_ result: Value) {
    let first = lock.withLock {
      guard value == nil else { return false }
      value = result
      return true
    }
    if first { delivered.signal() }
  }
}

/// An operation's completion handler was not called within its timeout.
public struct CompletionTimeout: Error, CustomStringConvertible, Sendable {
  /// The call whose handler never came.
  public var call: Scenario.Call
  /// How long it waited.
  public var timeout: Duration

  public var description: String {
    "the completion handler of \(call) was not called within \(timeout)"
  }
}
