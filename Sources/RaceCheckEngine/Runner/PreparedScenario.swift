/// A scenario bound to a spec: each call resolved to its operation and its model-side step.
package struct PreparedScenario<Subject, Model: Hashable & Sendable>: Sendable {
  struct Call {
    let perform: @Sendable (Subject, [Value]) throws -> Value
    /// The call itself when it is `async` and may be awaited from a task that makes others (``AsyncBatch``).
    let asyncCall: AsyncCall<Subject>?
    let arguments: [Value]
    let step: @Sendable (inout Model) -> Value
  }

  let scenario: Scenario
  let initial: [Call]
  let columns: [[Call]]
  let post: [Call]
  /// The run's `async` calls.
  let asyncCalls: AsyncCalls

  /// Resolves every call of `scenario`, or says which call does not fit the spec; under `probe`, its `async` calls record their hops.
  ///
  /// Each `async` call knows its index in the history, which names its task in a trace.
  package init(_ scenario: Scenario, spec: Spec<Subject, Model>, probe: AsyncProbe? = nil)
    throws(ScenarioError)
  {
    var operations: [String: Operation<Subject, Model>] = [:]
    for operation in spec.operations where operations[operation.name] == nil {
      operations[operation.name] = operation
    }
    let asyncCalls = AsyncCalls(probe)
    var index = 0
    func resolve(_ call: Scenario.Call) throws(ScenarioError) -> Call {
      guard let operation = operations[call.operation] else {
        throw .unknownOperation(call.operation, spec: spec.name)
      }
      if let problem = operation.validate(call.arguments) {
        throw .badArguments(call, problem)
      }
      defer { index += 1 }
      var perform = operation.perform
      if operation.isAsync {
        perform = { [index, perform] subject, arguments in
          try asyncCalls.making(call: index) { try perform(subject, arguments) }
        }
      }
      return Call(
        perform: perform, asyncCall: operation.runsOnMainThread ? nil : operation.asyncCall,
        arguments: call.arguments, step: operation.bind(call.arguments))
    }
    self.asyncCalls = asyncCalls
    self.scenario = scenario
    initial = try scenario.initial.map(resolve)
    columns = try scenario.parallel.map { column throws(ScenarioError) in try column.map(resolve) }
    post = try scenario.post.map(resolve)
  }

  /// `calls` made from one task, when the run allows it and every one of them is `async`; nil otherwise.
  ///
  /// A spec whose thread 0 runs on the main thread makes each call from there.
  func batch(_ calls: [Call], spec: Spec<Subject, Model>) -> AsyncBatch<Subject>? {
    guard calls.count > 1, !spec.usesMainThread else { return nil }
    return AsyncBatch(
      calls.map(\.asyncCall), arguments: calls.map(\.arguments),
      probe: asyncCalls.probe == nil ? nil : asyncCalls)
  }

  /// Makes every call on `subject` in turn, in history order, ignoring what they return or throw: the scenario with no concurrency, for what a run costs at least.
  package func performInTurn(on subject: Subject) {
    for call in initial { _ = try? call.perform(subject, call.arguments) }
    for column in columns {
      for call in column { _ = try? call.perform(subject, call.arguments) }
    }
    for call in post { _ = try? call.perform(subject, call.arguments) }
  }

  /// Every call's model-side step, in history order: init, each column, post.
  var steps: [@Sendable (inout Model) -> Value] {
    (initial + columns.flatMap { $0 } + post).map(\.step)
  }
}

/// A scenario that does not fit the spec it is run against.
package enum ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The spec has no operation of this name.
  case unknownOperation(String, spec: String)
  /// The arguments do not fit the operation.
  case badArguments(Scenario.Call, ModelError)

  package var description: String {
    switch self {
    case .unknownOperation(let name, let spec):
      return "the spec '\(spec)' has no operation '\(name)'"
    case .badArguments(let call, let problem):
      return "\(call): \(problem)"
    }
  }
}
