extension Operation {
  /// Creates an operation that returns a result, with its model-side counterpart.
  ///
  /// The two sides may return different types: results are compared as recorded
  /// ``Value``s, so a subject's `[Int]` matches a model's `[Value]` of the same integers.
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports.
  ///   - arguments: One generator per parameter of `perform` and `model`.
  ///   - perform: Calls the operation on the subject.
  ///   - model: Applies the operation to the sequential model and returns what it expects.
  public init<
    each Argument: ValueConvertible, Result: ValueConvertible, ModelResult: ValueConvertible
  >(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    perform: @escaping @Sendable (Subject, repeat each Argument) throws -> Result,
    model: @escaping @Sendable (inout Model, repeat each Argument) -> ModelResult
  ) {
    self.init(
      name: name,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: true,
      perform: { subject, values in
        var decoder = ArgumentDecoder(operation: name, arguments: values)
        return try perform(subject, repeat try decoder.next((each Argument).self)).historyValue
      },
      bind: { values in
        { state in
          var decoder = ArgumentDecoder(operation: name, arguments: values)
          do {
            return model(&state, repeat try decoder.next((each Argument).self)).historyValue
          } catch {
            preconditionFailure("arguments were validated before the check: \(error)")
          }
        }
      },
      validate: Self.decodes(
        name, returning: Result.historyValueKinds, matching: ModelResult.historyValueKinds,
        repeat (each Argument).self))
  }

  /// Creates an operation that returns nothing, with its model-side counterpart.
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports.
  ///   - arguments: One generator per parameter of `perform` and `model`.
  ///   - perform: Calls the operation on the subject.
  ///   - model: Applies the operation to the sequential model.
  public init<each Argument: ValueConvertible>(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    perform: @escaping @Sendable (Subject, repeat each Argument) throws -> Void,
    model: @escaping @Sendable (inout Model, repeat each Argument) -> Void
  ) {
    self.init(
      name: name,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: false,
      perform: { subject, values in
        var decoder = ArgumentDecoder(operation: name, arguments: values)
        try perform(subject, repeat try decoder.next((each Argument).self))
        return .null
      },
      bind: { values in
        { state in
          var decoder = ArgumentDecoder(operation: name, arguments: values)
          do {
            model(&state, repeat try decoder.next((each Argument).self))
          } catch {
            preconditionFailure("arguments were validated before the check: \(error)")
          }
          return .null
        }
      },
      validate: Self.decodes(name, repeat (each Argument).self))
  }

  /// An operation of the spec's own model whose subject side, already on recorded values, returns a value of kinds `results`.
  ///
  /// The forms whose call is not a plain one (a completion handler, an `async` call) build
  /// their subject side themselves and take their model side, generators and checks here.
  init<each Argument: ValueConvertible, ModelResult: ValueConvertible>(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    returning results: Value.Kinds,
    recordedPerform perform: @escaping @Sendable (Subject, [Value]) throws -> Value,
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
      perform: perform,
      bind: typed.bind,
      validate: Self.decodes(
        name, returning: results, matching: ModelResult.historyValueKinds,
        repeat (each Argument).self))
  }

  /// An operation of the spec's own model whose subject side, already on recorded values, returns nothing.
  init<each Argument: ValueConvertible>(
    _ name: String,
    _ arguments: repeat Generator<each Argument>,
    recordedPerform perform: @escaping @Sendable (Subject, [Value]) throws -> Value,
    model: @escaping @Sendable (inout Model, repeat each Argument) -> Void
  ) {
    let typed = Operation(
      name, repeat each arguments, perform: { (_: Subject, _: repeat each Argument) in },
      model: model)
    self.init(
      name: name,
      generators: typed.generators,
      passesFreshReferences: typed.passesFreshReferences,
      returnsValue: false,
      perform: perform,
      bind: typed.bind,
      validate: typed.validate)
  }

  static func erase<each Argument>(_ generators: repeat Generator<each Argument>) -> [AnyGenerator]
  {
    var erased: [AnyGenerator] = []
    for generator in repeat each generators {
      erased.append(AnyGenerator(generator))
    }
    return erased
  }

  static func anyReference<each Argument>(_ types: repeat (each Argument).Type) -> Bool {
    for type in repeat each types {
      if type is AnyObject.Type { return true }
    }
    return false
  }

  /// Checks recorded arguments against the parameter types, and that the two sides' results can ever be equal.
  static func decodes<each Argument: ValueConvertible>(
    _ name: String, returning results: Value.Kinds, matching modelResults: Value.Kinds,
    _ types: repeat (each Argument).Type
  ) -> @Sendable ([Value]) -> ModelError? {
    let decodes = Self.decodes(name, repeat each types)
    return { values in
      if results.isDisjoint(with: modelResults) {
        return .wrongResult(
          model: "spec's", operation: name, expected: modelResults, got: results)
      }
      return decodes(values)
    }
  }

  static func decodes<each Argument: ValueConvertible>(
    _ name: String, _ types: repeat (each Argument).Type
  ) -> @Sendable ([Value]) -> ModelError? {
    { values in
      var count = 0
      for _ in repeat each types { count += 1 }
      guard values.count == count else {
        return .wrongArgumentCount(operation: name, expected: count, got: values.count)
      }
      var decoder = ArgumentDecoder(operation: name, arguments: values)
      for type in repeat each types {
        let position = decoder.position
        if (try? decoder.next(type)) == nil {
          return .wrongArgument(
            operation: name, position: position, expected: "\(type)", got: values[position])
        }
      }
      return nil
    }
  }
}

extension Operation where Model: HistoryModel {
  /// Creates an operation of a built-in model's vocabulary that returns a result.
  ///
  /// Name it as the model does, or, when the subject's method has a name of its own, give
  /// the model's name with `as`: reports, scenarios and repro files show the subject's name,
  /// while the model, history files and the diagnoses see the model's operation.
  ///
  /// ```swift
  /// Operation("load", as: "read") { (register: Register) in register.load() }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports, scenarios and repro files: the model's name for it, such as `"append"`, unless `vocabularyName` gives that.
  ///   - vocabularyName: The model's name for the operation when `name` is the subject's own, such as `"write"` for a register's `store`; by default `name`.
  ///   - arguments: One generator per parameter, in the vocabulary's order.
  ///   - perform: Calls the operation on the subject.
  public init<each Argument: ValueConvertible, Result: ValueConvertible>(
    _ name: String,
    as vocabularyName: String? = nil,
    _ arguments: repeat Generator<each Argument>,
    perform: @escaping @Sendable (Subject, repeat each Argument) throws -> Result
  ) {
    self.init(
      name: name,
      vocabularyName: vocabularyName ?? name,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: true,
      perform: { subject, values in
        var decoder = ArgumentDecoder(operation: name, arguments: values)
        return try perform(subject, repeat try decoder.next((each Argument).self)).historyValue
      },
      bind: Self.vocabularyStep(vocabularyName ?? name),
      validate: Self.validatesStep(
        vocabularyName ?? name, returning: Result.historyValueKinds, repeat (each Argument).self))
  }

  /// Creates an operation of a built-in model's vocabulary that returns nothing.
  ///
  /// - Parameters:
  ///   - name: The operation's name in reports, scenarios and repro files: the model's name for it, such as `"append"`, unless `vocabularyName` gives that.
  ///   - vocabularyName: The model's name for the operation when `name` is the subject's own, such as `"write"` for a register's `store`; by default `name`.
  ///   - arguments: One generator per parameter, in the vocabulary's order.
  ///   - perform: Calls the operation on the subject.
  public init<each Argument: ValueConvertible>(
    _ name: String,
    as vocabularyName: String? = nil,
    _ arguments: repeat Generator<each Argument>,
    perform: @escaping @Sendable (Subject, repeat each Argument) throws -> Void
  ) {
    self.init(
      name: name,
      vocabularyName: vocabularyName ?? name,
      generators: Self.erase(repeat each arguments),
      passesFreshReferences: Self.anyReference(repeat (each Argument).self),
      returnsValue: false,
      perform: { subject, values in
        var decoder = ArgumentDecoder(operation: name, arguments: values)
        try perform(subject, repeat try decoder.next((each Argument).self))
        return .null
      },
      bind: Self.vocabularyStep(vocabularyName ?? name),
      validate: Self.validatesStep(
        vocabularyName ?? name, returning: .null, repeat (each Argument).self))
  }

  static func vocabularyStep(_ name: String)
    -> @Sendable ([Value]) -> @Sendable (inout Model) -> Value
  {
    { values in
      do {
        let step = try Model.step(name, values)
        return { state in state.apply(step) }
      } catch {
        preconditionFailure("arguments were validated before the check: \(error)")
      }
    }
  }

  /// Checks recorded arguments against the vocabulary, and that the closure's results are of a kind the model's operation returns.
  static func validatesStep<each Argument: ValueConvertible>(
    _ name: String, returning results: Value.Kinds, _ types: repeat (each Argument).Type
  ) -> @Sendable ([Value]) -> ModelError? {
    let decodes = Self.decodes(name, repeat each types)
    return { values in
      if let error = decodes(values) { return error }
      let expected = Model.resultKinds(of: name)
      if results.isDisjoint(with: expected) {
        return .wrongResult(model: Model.name, operation: name, expected: expected, got: results)
      }
      do throws(ModelError) {
        _ = try Model.step(name, values)
        return nil
      } catch {
        return error
      }
    }
  }
}
