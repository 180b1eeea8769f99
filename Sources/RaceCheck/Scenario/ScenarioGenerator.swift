/// Derives scenarios from a seed: the same seed, spec and sizes give the same scenarios.
struct ScenarioGenerator: Sendable {
  let operations: [(name: String, generators: [AnyGenerator])]
  let shape: Configuration.Shape

  init<Subject, Model>(spec: Spec<Subject, Model>, shape: Configuration.Shape) {
    operations = spec.operations.map { ($0.name, $0.generators) }
    self.shape = shape
  }

  /// How far arguments may range in scenario `index`: narrow first, so that early scenarios collide.
  static func breadth(ofScenario index: Int) -> Int {
    1 + index / 4
  }

  /// The scenario numbered `index` of the run seeded with `seed`.
  func scenario(seed: UInt64, index: Int) -> Scenario {
    var random = SplitMix64(seed: SplitMix64.derive(seed, UInt64(index)))
    let breadth = Self.breadth(ofScenario: index)
    func calls(_ count: Int) -> [Scenario.Call] {
      (0..<count).map { _ in
        let operation = operations[random.below(operations.count)]
        return Scenario.Call(operation.name, operation.generators.map { $0.draw(&random, breadth) })
      }
    }
    let initial = calls(shape.initialOperations)
    let parallel = (0..<shape.threads).map { _ in calls(shape.operationsPerThread) }
    let post = calls(shape.postOperations)
    return Scenario(initial: initial, parallel: parallel, post: post)
  }
}
