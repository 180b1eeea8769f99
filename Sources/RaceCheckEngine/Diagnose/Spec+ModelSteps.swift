extension Spec {
  /// The operation named `name`, if the spec has one.
  func operation(named name: String) -> Operation<Subject, Model>? {
    operations.first { $0.name == name }
  }

  /// Whether every call of `calls` is a vocabulary operation of the model, one call into the subject each.
  ///
  /// A call of an operation the spec does not have counts as not one: nothing is known of it.
  func mapsToVocabulary(_ calls: [Scenario.Call]) -> Bool {
    calls.allSatisfy { operation(named: $0.operation)?.mapsToVocabulary == true }
  }

  /// The model side of each entry of `history`, bound once to the entry's arguments.
  ///
  /// An entry of an operation the spec does not have, or whose arguments do not fit it,
  /// has no step: a hypothesis then accepts any result for it and changes nothing.
  func boundSteps(for history: History) -> [History.Entry: @Sendable (inout Model) -> Value] {
    var steps: [History.Entry: @Sendable (inout Model) -> Value] = [:]
    for entry in history.entries where steps[entry] == nil {
      guard let operation = operation(named: entry.call.operation),
        operation.validate(entry.call.arguments) == nil
      else { continue }
      steps[entry] = operation.bind(entry.call.arguments)
    }
    return steps
  }

  /// The array model's elements after `calls` from the initial state, as the calls' operations change the model, or nil when the model is not an array or a call does not fit or is invalid.
  func arrayElements(after calls: [Scenario.Call]) -> [Value]? {
    // Each call's own operation says what it does to the model, its own model closure included.
    guard model is ArrayModel,
      calls.allSatisfy({ call in
        operation(named: call.operation).map { $0.validate(call.arguments) == nil } ?? false
      }),
      let state = ModelInterleavings(spec: self).state(after: calls[...], from: model)
    else { return nil }
    return (state as? ArrayModel)?.elements
  }
}
