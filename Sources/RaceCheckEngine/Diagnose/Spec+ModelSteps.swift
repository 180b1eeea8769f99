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
}
