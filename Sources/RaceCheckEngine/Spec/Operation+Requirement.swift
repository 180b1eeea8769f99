extension Operation {
  /// This operation, valid only where `condition` holds of the model's state and the call's arguments.
  ///
  /// Use it for operations that trap by contract, as `Array`'s subscript does on an index
  /// out of range. Generators then prefer arguments that are valid in every order the
  /// scenario's threads can run in, and a trap in a call whose condition some order
  /// leaves false is the contract at work, not a bug: the check does not report it, and
  /// runs on. A trap where every order satisfies the condition is still a crash of the type.
  ///
  /// ```swift
  /// Operation("get", .int(in: 0...4)) { (array: TrappingArray, index: Int) in array[index] }
  ///   .requires { (model: ArrayModel, index: Int) in index < model.count }
  /// ```
  ///
  /// - Parameter condition: Takes the model's state before the call and the call's
  ///   arguments, in the order of the operation's generators.
  /// - Returns: The operation with its requirement.
  public func requires<each Argument: ValueConvertible>(
    _ condition: @escaping @Sendable (Model, repeat each Argument) -> Bool
  ) -> Operation {
    var operation = self
    let name = self.name
    operation.requirement = { model, values in
      var decoder = ArgumentDecoder(operation: name, arguments: values)
      return condition(model, repeat try decoder.next((each Argument).self))
    }
    return operation
  }

  /// Whether the call with `arguments` is valid in `state`; an operation without a requirement always is.
  func isValid(_ arguments: [Value], in state: Model) -> Bool {
    guard let requirement else { return true }
    return (try? requirement(state, arguments)) ?? true
  }
}
