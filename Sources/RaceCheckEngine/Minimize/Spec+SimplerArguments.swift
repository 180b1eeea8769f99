extension Spec {
  /// The argument lists one step simpler than `call`'s: one argument shrunk by its generator, the others kept.
  func simplerArguments(_ call: Scenario.Call) -> [[Value]] {
    guard let operation = operations.first(where: { $0.name == call.operation }) else {
      return []
    }
    var result: [[Value]] = []
    for (position, generator) in zip(call.arguments.indices, operation.generators) {
      for simpler in generator.shrink(call.arguments[position]) {
        var arguments = call.arguments
        arguments[position] = simpler
        result.append(arguments)
      }
    }
    return result
  }
}
