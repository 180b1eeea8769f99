import Synchronization

extension Operation where Model: HistoryModel {
  /// Creates an operation of a built-in model's vocabulary whose call is `async`, such as an actor's method.
  ///
  /// Each call runs in a task of its own, started from the scenario thread that makes it,
  /// and the thread waits for the task: the operation is called when the task starts and
  /// returns when it ends, as an awaiting caller sees it. Calls of different threads run
  /// on Swift's concurrency runtime at the same time, so an actor method that suspends
  /// lets another call onto the actor at its `await`.
  ///
  /// ```swift
  /// Operation("get", .int(in: 0...3)) { (cache: ImageCache, key: Int) in await cache.image(for: key) }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports, scenarios and repro files: the model's name for it, such as `"append"`, unless `vocabularyName` gives that.
  ///   - vocabularyName: The model's name for the operation when `name` is the subject's own, such as `"write"` for a register's `store`; by default `name`.
  ///   - arguments: One generator per parameter, in the vocabulary's order.
  ///   - timeout: How long a call may go without returning before it is a hang; in an isolated
  ///     child, the shorter of this and ``Configuration/hangTimeout``, counted while the child
  ///     is not kept from a CPU.
  ///   - perform: Calls the operation on the subject.
  public init<each Argument: ValueConvertible, Result: ValueConvertible>(
    _ name: String,
    as vocabularyName: String? = nil,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    perform: @escaping @Sendable (Subject, repeat each Argument) async throws -> Result
  ) {
    let call = AsyncCall<Subject>(name, timeout: timeout) {
      (subject: Subject, argument: repeat each Argument) in
      try await perform(subject, repeat each argument).historyValue
    }
    self.init(
      name: name,
      vocabularyName: vocabularyName ?? name,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: true,
      perform: Self.waiting(call),
      bind: Self.vocabularyStep(vocabularyName ?? name),
      validate: Self.validatesStep(
        vocabularyName ?? name, returning: Result.historyValueKinds, repeat (each Argument).self))
    asyncCall = call
  }

  /// Creates an operation of a built-in model's vocabulary whose call is `async` and returns nothing.
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports, scenarios and repro files: the model's name for it, such as `"append"`, unless `vocabularyName` gives that.
  ///   - vocabularyName: The model's name for the operation when `name` is the subject's own, such as `"write"` for a register's `store`; by default `name`.
  ///   - arguments: One generator per parameter, in the vocabulary's order.
  ///   - timeout: How long a call may go without returning before it is a hang; in an isolated
  ///     child, the shorter of this and ``Configuration/hangTimeout``, counted while the child
  ///     is not kept from a CPU.
  ///   - perform: Calls the operation on the subject.
  public init<each Argument: ValueConvertible>(
    _ name: String,
    as vocabularyName: String? = nil,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    perform: @escaping @Sendable (Subject, repeat each Argument) async throws -> Void
  ) {
    let call = AsyncCall<Subject>(name, timeout: timeout) {
      (subject: Subject, argument: repeat each Argument) in
      try await perform(subject, repeat each argument)
      return .null
    }
    self.init(
      name: name,
      vocabularyName: vocabularyName ?? name,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: false,
      perform: Self.waiting(call),
      bind: Self.vocabularyStep(vocabularyName ?? name),
      validate: Self.validatesStep(
        vocabularyName ?? name, returning: .null, repeat (each Argument).self))
    asyncCall = call
  }
}

extension Operation {
  /// Creates an operation whose call is `async`, with its model-side counterpart.
  ///
  /// The call runs in a task of its own and its thread waits for it, as with a built-in
  /// model's `async` operations; the model side stays synchronous.
  ///
  /// ```swift
  /// Operation("withdraw", .int(in: 1...2)) { (account: Account, amount: Int) in
  ///   await account.withdraw(amount)
  /// } model: { (balance: inout Int, amount: Int) -> Bool in
  ///   guard balance >= amount else { return false }
  ///   balance -= amount
  ///   return true
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports.
  ///   - arguments: One generator per parameter of `perform` and `model`.
  ///   - timeout: How long a call may go without returning before it is a hang; in an isolated
  ///     child, the shorter of this and ``Configuration/hangTimeout``, counted while the child
  ///     is not kept from a CPU.
  ///   - perform: Calls the operation on the subject.
  ///   - model: Applies the operation to the sequential model and returns what it expects.
  public init<
    each Argument: ValueConvertible, Result: ValueConvertible, ModelResult: ValueConvertible
  >(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    perform: @escaping @Sendable (Subject, repeat each Argument) async throws -> Result,
    model: @escaping @Sendable (inout Model, repeat each Argument) -> ModelResult
  ) {
    let call = AsyncCall<Subject>(name, timeout: timeout) {
      (subject: Subject, argument: repeat each Argument) in
      try await perform(subject, repeat each argument).historyValue
    }
    self.init(
      name, repeat each arguments, returning: Result.historyValueKinds,
      recordedPerform: Self.waiting(call), model: model)
    asyncCall = call
  }

  /// Creates an operation whose call is `async` and returns nothing, with its model-side counterpart.
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports.
  ///   - arguments: One generator per parameter of `perform` and `model`.
  ///   - timeout: How long a call may go without returning before it is a hang; in an isolated
  ///     child, the shorter of this and ``Configuration/hangTimeout``, counted while the child
  ///     is not kept from a CPU.
  ///   - perform: Calls the operation on the subject.
  ///   - model: Applies the operation to the sequential model.
  public init<each Argument: ValueConvertible>(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    timeout: Duration = .seconds(30),
    perform: @escaping @Sendable (Subject, repeat each Argument) async throws -> Void,
    model: @escaping @Sendable (inout Model, repeat each Argument) -> Void
  ) {
    let call = AsyncCall<Subject>(name, timeout: timeout) {
      (subject: Subject, argument: repeat each Argument) in
      try await perform(subject, repeat each argument)
      return .null
    }
    self.init(name, repeat each arguments, recordedPerform: Self.waiting(call), model: model)
    asyncCall = call
  }

  /// The subject's side of an `async` operation: runs a call in a task of its own and waits for it.
  ///
  /// Under an ``AsyncProbe`` the call goes through the run's gate, which may hold it back
  /// while a call of the probe's exclusive operation is in flight.
  static func waiting(_ call: AsyncCall<Subject>) -> @Sendable (Subject, [Value]) throws -> Value {
    let wait = CompletionWait()
    return { subject, values in
      let subject = Shared(subject)
      let made = Scenario.Call(call.name, values)
      let probed = AsyncCalls.current
      let executor = CallExecutor.needed(for: made, made: probed)
      return try wait.value(of: made, timeout: call.timeout, on: executor) {
        let gated = probed?.calls.gates == true ? probed : nil
        if let gated { await gated.calls.enter(call.name) }
        defer { gated?.calls.leave(call.name) }
        return try await call.run(subject.value, values)
      }
    }
  }
}

/// An operation's `async` call: decodes recorded arguments and awaits the subject's method.
struct AsyncCall<Subject>: Sendable {
  /// The operation's name.
  let name: String
  /// How long a caller waits for it outside an isolated child.
  let timeout: Duration
  /// Makes the call with recorded arguments and returns its result as a value.
  let run: @Sendable (Subject, [Value]) async throws -> Value

  init(
    name: String, timeout: Duration,
    run: @escaping @Sendable (Subject, [Value]) async throws -> Value
  ) {
    self.name = name
    self.timeout = timeout
    self.run = run
  }

  init<each Argument: ValueConvertible>(
    _ name: String, timeout: Duration,
    _ call: @escaping @Sendable (Subject, repeat each Argument) async throws -> Value
  ) {
    self.name = name
    self.timeout = timeout
    run = { subject, values in
      var decoder = ArgumentDecoder(operation: name, arguments: values)
      return try await call(subject, repeat try decoder.next((each Argument).self))
    }
  }
}

extension CompletionWait {
  /// Runs `operation` in a task of its own and returns the value it returns, once it has; rethrows what it throws.
  ///
  /// With an executor, the task prefers it: its jobs of no actor run on the executor's
  /// queue, so under the scheduler they are blocks the scheduler runs, and the wait is one
  /// of its scheduling points. Without one, the task starts at once on the calling thread,
  /// and its later jobs go straight to the runtime's executors: a call costs a hop or two
  /// fewer than through a queue of racecheck's, which is most of an `async` call's cost.
  func value(
    of call: Scenario.Call, timeout: Duration, on executor: CallExecutor? = nil,
    running operation: @escaping @Sendable () async throws -> Value
  ) throws -> Value {
    let thrown = Thrown()
    let value: Value
    do {
      value = try self.value(of: call, timeout: timeout) {
        (done: @escaping @Sendable (Value) -> Void) in
        @Sendable func run() async {
          do {
            done(try await operation())
          } catch {
            thrown.keep(error)
            done(.null)
          }
        }
        if let executor {
          Task(executorPreference: executor, operation: run)
        } else {
          Task.immediate(operation: run)
        }
      }
    } catch var timedOut as CompletionTimeout {
      timedOut.awaited = true
      throw timedOut
    }
    try thrown.rethrow()
    return value
  }

  /// The error a call's task threw, handed to the thread that waited for it.
  private final class Thrown: Sendable {
    private let error = Mutex<(any Error)?>(nil)

    func keep(_ thrown: any Error) { error.withLock { $0 = thrown } }

    func rethrow() throws {
      if let thrown = error.withLock({ $0 }) { throw thrown }
    }
  }
}

/// A subject handed to the task that calls it: the subject is shared between threads on purpose, since it is what the check tests.
struct Shared<Subject>: @unchecked Sendable {
  // @unchecked Sendable: shared on purpose: whether that is safe is what the check tests.
  let value: Subject

  init(_ value: Subject) { self.value = value }
}
