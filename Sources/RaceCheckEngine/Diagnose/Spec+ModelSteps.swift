extension Spec {
  /// The operation named `name`, if the spec has one.
  func operation(named name: String) -> Operation<Subject, Model>? {
    operations.first { $0.name == name }
  }

  /// Whether every operation named in `names` is a vocabulary operation of the model, one call into the subject each.
  ///
  /// An operation the spec does not have counts as not one: nothing is known of it.
  func mapsToVocabulary(_ names: some Sequence<String>) -> Bool {
    names.allSatisfy { operation(named: $0)?.mapsToVocabulary == true }
  }

  /// The model side of each entry of `history`, bound once to the entry's arguments.
  ///
  /// An entry of an operation the spec does not have, or whose arguments do not fit it,
  /// has no step: a hypothesis then accepts any result for it and changes nothing.
  func boundSteps(for history: History) -> [RecordedHistory.Operation:
    @Sendable (inout Model) -> Value]
  {
    var steps: [RecordedHistory.Operation: @Sendable (inout Model) -> Value] = [:]
    for entry in history.operations where steps[entry] == nil {
      guard let operation = operation(named: entry.name),
        operation.validate(entry.arguments) == nil
      else { continue }
      steps[entry] = operation.bind(entry.arguments)
    }
    return steps
  }
}
