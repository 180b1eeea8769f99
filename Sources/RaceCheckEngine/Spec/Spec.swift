import Foundation

/// What racecheck needs to check a type: how to make one, its operations, and a sequential model.
///
/// ```swift
/// let spec = Spec("LockArray", make: LockArray.init, model: ArrayModel()) {
///   Operation("append", .int(in: 0...3)) { (array: LockArray, x: Int) in array.addObject(x) }
///   Operation("count") { (array: LockArray) in array.count }
/// }
/// check(spec)
/// ```
public struct Spec<Subject, Model: Hashable & Sendable>: Sendable {
  /// The name reports and the command line use for this spec.
  public var name: String

  /// Makes a fresh subject; racecheck calls it once per invocation.
  public var make: @Sendable () -> Subject

  /// The model's initial state: a plain value compared and hashed by the checker.
  public var model: Model

  /// The operations scenarios draw from.
  public var operations: [Operation<Subject, Model>]

  /// Whether thread 0 of every scenario, with the init and post parts, runs on the process's main thread.
  ///
  /// For types whose behaviour depends on the thread (`Thread.isMainThread`, main-actor
  /// state, `DispatchQueue.main`): the other threads then run beside the main thread, as
  /// background work runs beside an app's main thread. An operation marked
  /// ``Operation/onMainThread()`` sets it by itself.
  public var runsThreadZeroOnMainThread = false

  /// Whether the spec is an ``Exploration``'s: its one operation is a body whose expectations, not a model, decide a schedule.
  package var isExploration = false

  /// Creates a spec from a name, a factory, an initial model state and a list of operations.
  public init(
    _ name: String,
    make: @escaping @Sendable () -> Subject,
    model: Model,
    @OperationBuilder<Subject, Model> operations: () -> [Operation<Subject, Model>]
  ) {
    self.name = name
    self.make = make
    self.model = model
    self.operations = operations()
  }
}

extension Spec {
  /// Creates a spec whose subjects are made on the main actor, as a `@MainActor` class's isolated initializer asks.
  ///
  /// `make` runs in a task on the main actor, which the thread that makes a subject waits
  /// for, as it waits for an `async` operation's call: under the scheduler the task's job is
  /// one more it schedules (a program built on `CommandLineDriver` and a test both serve
  /// the main queue, where the main actor's jobs run).
  public init(
    _ name: String,
    makeOnMainActor: @escaping @MainActor @Sendable () -> Subject,
    model: Model,
    @OperationBuilder<Subject, Model> operations: () -> [Operation<Subject, Model>]
  ) {
    self.init(
      name,
      make: {
        if Thread.isMainThread {
          return MainActor.assumeIsolated { UncheckedBox(makeOnMainActor()) }.value
        }
        let made = MadeOnMainActor<Subject>()
        Task { @MainActor in made.hand(makeOnMainActor()) }
        return made.take()
      }, model: model, operations: operations)
  }
}

extension Spec where Model: HistoryModel {
  /// Creates a spec over a built-in model whose subjects are made on the main actor (``init(_:makeOnMainActor:model:operations:)``).
  public init(
    _ name: String,
    makeOnMainActor: @escaping @MainActor @Sendable () -> Subject,
    @OperationBuilder<Subject, Model> operations: () -> [Operation<Subject, Model>]
  ) {
    self.init(name, makeOnMainActor: makeOnMainActor, model: Model(), operations: operations)
  }

  /// Creates a spec over a built-in model in its default initial state.
  public init(
    _ name: String,
    make: @escaping @Sendable () -> Subject,
    @OperationBuilder<Subject, Model> operations: () -> [Operation<Subject, Model>]
  ) {
    self.init(name, make: make, model: Model(), operations: operations)
  }
}

extension Spec {
  /// Whether thread 0 runs on the main thread: asked for, or needed by an operation.
  var usesMainThread: Bool {
    runsThreadZeroOnMainThread || operations.contains(where: \.runsOnMainThread)
  }

  /// The names of the operations that return nothing, whose results reports leave out.
  var voidOperations: Set<String> {
    Set(operations.filter { !$0.returnsValue }.map(\.name))
  }
}

/// Collects a spec's operations from the statements of a closure.
@resultBuilder
public enum OperationBuilder<Subject, Model: Hashable & Sendable> {
  /// Takes one operation written as a statement, such as `Operation("get") { … }`.
  public static func buildExpression(_ operation: Operation<Subject, Model>) -> [Operation<
    Subject, Model
  >] {
    [operation]
  }

  /// Takes an array of operations written as a statement, such as one a helper function returns.
  public static func buildExpression(_ operations: [Operation<Subject, Model>]) -> [Operation<
    Subject, Model
  >] {
    operations
  }

  /// Joins the operations of every statement of a block, in the order they are written.
  public static func buildBlock(_ parts: [Operation<Subject, Model>]...) -> [Operation<
    Subject, Model
  >] {
    parts.flatMap { $0 }
  }

  /// Takes the operations of an `if` without an `else`: none when its condition is false.
  public static func buildOptional(_ part: [Operation<Subject, Model>]?) -> [Operation<
    Subject, Model
  >] {
    part ?? []
  }

  /// Takes the operations of the first branch of an `if`–`else` or a `switch`.
  public static func buildEither(first part: [Operation<Subject, Model>]) -> [Operation<
    Subject, Model
  >] {
    part
  }

  /// Takes the operations of the second branch of an `if`–`else` or a `switch`.
  public static func buildEither(second part: [Operation<Subject, Model>]) -> [Operation<
    Subject, Model
  >] {
    part
  }

  /// Joins the operations a `for` loop gives on each of its iterations.
  public static func buildArray(_ parts: [[Operation<Subject, Model>]]) -> [Operation<
    Subject, Model
  >] {
    parts.flatMap { $0 }
  }
}

/// A subject made by a task on the main actor, handed to the thread that waits for it.
private final class MadeOnMainActor<Subject>: @unchecked Sendable {
  // @unchecked Sendable: the semaphore orders the one write before the one read.
  private var subject: Subject?
  private let made = DispatchSemaphore(value: 0)

  func hand(_ subject: Subject) {
    self.subject = subject
    made.signal()
  }

  func take() -> Subject {
    made.wait()
    return subject!
  }
}
