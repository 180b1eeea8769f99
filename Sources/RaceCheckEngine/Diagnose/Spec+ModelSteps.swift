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

  /// The model side of each operation of `history`, by index, bound once to its arguments: a vocabulary step or the operation's own model closure.
  ///
  /// An operation the spec does not have, or whose arguments do not fit it, has no model
  /// side: a hypothesis then accepts any result for it and changes nothing.
  func modelSides(of history: History) -> [(@Sendable (inout Model) -> Value)?] {
    history.operations.map { recorded in
      guard let operation = operation(named: recorded.name),
        operation.validate(recorded.arguments) == nil
      else { return nil }
      return operation.bind(recorded.arguments)
    }
  }
}

extension Spec {
  /// The array model's typed step for `call`, for a spec over ``ArrayModel``; nil for a spec over any other model (see ``step(of:_:)``).
  ///
  /// A crash's diagnosis, which knows the spec only through closures, asks it what a call in
  /// flight was: a read at an index, an indexed write, a snapshot.
  func arrayStep(of call: Scenario.Call) -> ArrayModel.Step? {
    (self as? Spec<Subject, ArrayModel>)?.step(of: call.operation, call.arguments)
  }
}

extension Spec where Model: HistoryModel {
  /// The model's typed step for a call of the operation `name` with `arguments`: what a diagnosis asks of an operation, rather than its name.
  ///
  /// A spec may give a vocabulary operation the subject's own name (`Operation("store", as:
  /// "write", …)`): its step is the vocabulary's all the same. An operation with its own
  /// model closure has none, as the model cannot tell what the closure does; nor has an
  /// operation the spec does not have, or a call whose arguments the model rejects.
  func step(of name: String, _ arguments: [Value]) -> Model.Step? {
    guard let vocabularyName = operation(named: name)?.vocabularyName else { return nil }
    return try? Model.step(vocabularyName, arguments)
  }

  /// The model's typed step of each operation of `history`, by index (see ``step(of:_:)``).
  func steps(of history: History) -> [Model.Step?] {
    history.operations.map { step(of: $0.name, $0.arguments) }
  }
}

extension Spec {
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
