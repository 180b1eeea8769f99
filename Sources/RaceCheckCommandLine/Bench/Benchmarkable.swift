import RaceCheckEngine

/// A spec whose stress runner can be measured; every ``Spec`` is one.
package protocol Benchmarkable {
  /// Invocations per second of `shape`'s scenarios over about `duration`, recorded and checked or bare.
  func stressThroughput(shape: Configuration.Shape, duration: Duration, recording: Bool) -> Double
}

extension Spec: Benchmarkable {
  package func stressThroughput(shape: Configuration.Shape, duration: Duration, recording: Bool)
    -> Double
  {
    let generator = ScenarioGenerator(spec: self, shape: shape)
    let runner = StressRunner(spec: self, threads: shape.threads)
    defer { runner.shutDown() }
    let started = MonotonicInstant.now()
    let deadline = Deadline.after(duration, from: started)
    var invocations = 0
    var index = 0
    while !deadline.hasPassed {
      guard
        let prepared = try? PreparedScenario(
          generator.scenario(seed: 0xBE7C, index: index), spec: self)
      else { return 0 }
      index += 1
      let batch = 1_000
      if recording {
        guard let result = try? runner.run(prepared, invocations: batch, stopAtFirstFailure: false)
        else { return 0 }
        invocations += result.invocations
      } else {
        runner.runBare(prepared, invocations: batch)
        invocations += batch
      }
    }
    return started.elapsed.rate(of: invocations)
  }
}
