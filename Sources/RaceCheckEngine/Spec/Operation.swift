/// One operation of a spec: its name, how to draw its arguments, how to call it on the subject and on the model.
///
/// With a custom model, give both sides:
///
/// ```swift
/// Operation("increment") { (counter: Counter) in counter.increment() } model: { (count: inout Int) in count += 1 }
/// ```
///
/// With a built-in ``HistoryModel``, name the model's operation and give the subject's side only:
///
/// ```swift
/// Operation("insert", .int(in: 0...3), .int(in: 0...2)) { (array: LockArray, x: Int, i: Int) in array.insertObject(x, atIndex: i) }
/// ```
public struct Operation<Subject, Model: Hashable & Sendable>: Sendable {
  /// The operation's name, as reports and history files show it.
  public let name: String

  let generators: [AnyGenerator]

  /// Calls the operation on the subject with recorded arguments and records its result.
  var perform: @Sendable (Subject, [Value]) throws -> Value

  /// Binds recorded arguments once, giving the model-side step the checker calls many times.
  let bind: @Sendable ([Value]) -> @Sendable (inout Model) -> Value

  /// Whether an argument reaches the subject as a new class instance on every call.
  let passesFreshReferences: Bool

  /// Whether the operation returns a value; reports leave the result of the others out.
  let returnsValue: Bool

  /// The built-in model's name for the operation, for an operation of its vocabulary; nil for one with its own model closure.
  ///
  /// It is the operation's ``name`` unless the spec names it after the subject's method
  /// (`Operation("store", as: "write", …)`). The model's typed step of a call, which the
  /// diagnoses reason about, is decoded with it (``Spec/step(of:_:)``), and a history file
  /// names the operation by it, so that `racecheck check` reads the file with the model.
  let vocabularyName: String?

  /// Whether the operation is a built-in model's vocabulary operation, adapted to one call into the subject.
  ///
  /// An operation with its own model closure may be a compound of the subject's calls
  /// (`set(get(k) + 1, k)`), so a failure of it says nothing about one call being atomic;
  /// the diagnoses that assume one call per operation check this first.
  var mapsToVocabulary: Bool

  /// Says why recorded arguments do not fit the model, or nil when they do.
  let validate: @Sendable ([Value]) -> ModelError?

  /// When the operation is valid, in terms of the model's state; nil when it always is.
  ///
  /// Set by ``requires(_:)``. It throws ``ArgumentMismatch`` when the recorded arguments
  /// do not fit the condition's parameters.
  var requirement: (@Sendable (Model, [Value]) throws -> Bool)? = nil

  /// Whether the operation runs on the process's main thread only; set by ``onMainThread()``.
  var runsOnMainThread = false

  /// The operation's `async` call itself, or nil for an operation whose call is synchronous.
  ///
  /// `perform` runs it in a task of its own and waits (see ``waiting(_:timeout:_:)``); a
  /// runner that makes several calls in a row may await them from one task instead
  /// (``AsyncBatch``).
  var asyncCall: AsyncCall<Subject>?

  /// Whether the operation's call is `async`.
  var isAsync: Bool { asyncCall != nil }

  /// How long a call may go without returning before it is a hang: an `async` operation's `timeout:`; nil for any other.
  ///
  /// A completion-handler operation's `timeout:` bounds its wait in a check in this process
  /// only: a stored copy of it here grows every operation, and the debug builds of large
  /// specs' initializers then crash on the cooperative pool's stacks.
  var callTimeout: Duration? { asyncCall?.timeout }

  init(
    name: String,
    vocabularyName: String? = nil,
    generators: [AnyGenerator],
    passesFreshReferences: Bool,
    returnsValue: Bool,
    perform: @escaping @Sendable (Subject, [Value]) throws -> Value,
    bind: @escaping @Sendable ([Value]) -> @Sendable (inout Model) -> Value,
    validate: @escaping @Sendable ([Value]) -> ModelError? = { _ in nil }
  ) {
    self.name = name
    self.vocabularyName = vocabularyName
    mapsToVocabulary = vocabularyName != nil
    self.generators = generators
    self.passesFreshReferences = passesFreshReferences
    self.returnsValue = returnsValue
    self.perform = perform
    self.bind = bind
    self.validate = validate
  }
}

/// An operation's recorded arguments could not be turned back into the types its closure takes.
package struct ArgumentMismatch: Error, CustomStringConvertible, Sendable {
  /// The operation's name.
  package var operation: String
  /// The recorded arguments.
  package var arguments: [Value]

  package var description: String {
    "the arguments \(Value.list(arguments)) do not fit the parameters of '\(operation)'"
  }
}

/// Decodes recorded arguments into typed parameters, in order.
struct ArgumentDecoder {
  let operation: String
  let arguments: [Value]
  var position = 0

  mutating func next<Argument: ValueConvertible>(_: Argument.Type) throws -> Argument {
    defer { position += 1 }
    guard position < arguments.count, let value = Argument(historyValue: arguments[position]) else {
      throw ArgumentMismatch(operation: operation, arguments: arguments)
    }
    return value
  }
}

extension Operation {
  /// The arguments its generators draw first from seed 0 at the smallest breadth: one fixed call, which the spec's validation and the index-guard probe try.
  var firstArguments: [Value] {
    var random: any RandomNumberGenerator = SplitMix64(seed: 0)
    return generators.map { $0.draw(&random, 1) }
  }
}
