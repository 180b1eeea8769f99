/// Derives scenarios from a seed: the same seed, spec and sizes give the same scenarios.
package struct ScenarioGenerator: Sendable {
  let operations: [(name: String, generators: [AnyGenerator])]
  /// The operations threads other than thread 0 draw from: every one but those that run on the main thread.
  let backgroundOperations: [(name: String, generators: [AnyGenerator])]
  let shape: Configuration.Shape
  /// Whether a call drawn for a place in a scenario is valid there, for specs whose operations state requirements.
  let accepts: (@Sendable (Scenario.Call, Scenario.CallPath, Scenario) -> Bool)?

  /// How many times a call is drawn again, operation and arguments, before an invalid one is kept.
  static let drawsPerCall = 32

  package init<Subject, Model>(spec: Spec<Subject, Model>, shape: Configuration.Shape) {
    operations = spec.operations.map { ($0.name, $0.generators) }
    backgroundOperations = spec.operations.filter { !$0.runsOnMainThread }.map {
      ($0.name, $0.generators)
    }
    self.shape = shape
    if spec.hasRequirements {
      accepts = { call, path, scenario in spec.accepts(call, at: path, of: scenario) }
    } else {
      accepts = nil
    }
  }

  /// How far arguments may range in scenario `index`: narrow first, so that early scenarios collide.
  static func breadth(ofScenario index: Int) -> Int {
    1 + index / 4
  }

  /// Whether scenario `index` starts on a fresh subject, its threads at once, with no init part: one in four, from the fifth.
  ///
  /// A type's first use (a lazy setup, a login, a cache's first fill) races only when the
  /// threads make it; an init part makes it first, alone. The init calls are drawn all the
  /// same and dropped, so that the threads draw what they would have drawn (where operations
  /// have requirements, against the scenario without them). The first four keep theirs: a
  /// schedule search gives them the smallest budgets (``ScheduleSettings``), which the bugs
  /// that need some state first are found within.
  package static func startsFresh(scenario index: Int) -> Bool {
    index > 0 && index % 4 == 0
  }

  /// The scenario numbered `index` of the run seeded with `seed`.
  ///
  /// Calls are drawn in history order: the init part, each thread, the post part. A call
  /// whose requirement fails in some order that reaches it is drawn again, up to
  /// ``drawsPerCall`` times; without requirements every call is drawn once. Some scenarios
  /// have no init part (``startsFresh(scenario:)``).
  package func scenario(seed: UInt64, index: Int) -> Scenario {
    var random: any RandomNumberGenerator = SplitMix64(seed: SplitMix64.derive(seed, UInt64(index)))
    let breadth = Self.breadth(ofScenario: index)
    var scenario = Scenario()
    func draw(at path: Scenario.CallPath) -> Scenario.Call {
      var operations = self.operations
      if case .parallel(let thread, _) = path, thread > 0, !backgroundOperations.isEmpty {
        operations = backgroundOperations
      }
      func drawOnce() -> Scenario.Call {
        let operation = operations[random.below(operations.count)]
        return Scenario.Call(operation.name, operation.generators.map { $0.draw(&random, breadth) })
      }
      var call = drawOnce()
      guard let accepts else { return call }
      for _ in 1..<Self.drawsPerCall where !accepts(call, path, scenario) {
        call = drawOnce()
      }
      return call
    }
    let startsFresh = Self.startsFresh(scenario: index)
    for position in 0..<shape.initialOperations {
      let call = draw(at: .initial(position))
      if !startsFresh { scenario.initial.append(call) }
    }
    for thread in 0..<shape.threads {
      scenario.parallel.append([])
      for position in 0..<shape.operationsPerThread {
        scenario.parallel[thread].append(draw(at: .parallel(thread: thread, position)))
      }
    }
    for position in 0..<shape.postOperations {
      scenario.post.append(draw(at: .post(position)))
    }
    return scenario
  }
}
