import RaceCheckEngine

// What `racecheck bench` measures of a target: how fast its runners go.
extension Checkable {
  /// Invocations per second of `shape`'s scenarios, recorded and checked and bare, the best of `rounds` alternating rounds of each over about `duration` in all.
  ///
  /// Alternating short rounds on one runner and keeping each side's best puts both
  /// through the same moments of a busy machine, so their ratio is the cost of recording
  /// and checking rather than of whatever else ran at the time.
  package func stressThroughput(shape: Configuration.Shape, duration: Duration, rounds: Int = 5)
    -> (checked: Double, bare: Double)
  {
    let spec = spec
    let generator = ScenarioGenerator(spec: spec, shape: shape)
    let runner = StressRunner(spec: spec, threads: shape.threads)
    defer { runner.shutDown() }
    var best = (checked: 0.0, bare: 0.0)
    var index = 0
    for _ in 0..<rounds {
      for recording in [true, false] {
        let started = MonotonicInstant.now()
        let deadline = Deadline.after(duration / (2 * rounds), from: started)
        var invocations = 0
        while !deadline.hasPassed {
          guard
            let prepared = try? PreparedScenario(
              generator.scenario(seed: 0xBE7C, index: index), spec: spec)
          else { return (0, 0) }
          index += 1
          let batch = 1_000
          if recording {
            guard
              let result = try? runner.run(prepared, invocations: batch, stopAtFirstFailure: false)
            else { return (0, 0) }
            invocations += result.invocations
          } else {
            runner.runBare(prepared, invocations: batch)
            invocations += batch
          }
        }
        let rate = started.elapsed.rate(of: invocations)
        if recording {
          best.checked = max(best.checked, rate)
        } else {
          best.bare = max(best.bare, rate)
        }
      }
    }
    return best
  }

  /// Runs per second of `shape`'s scenarios with no scheduler, recording or check: each call made in turn on this thread, the limit of a schedule's speed.
  ///
  /// The scenarios are those ``scheduleThroughput(shape:duration:)`` explores, their calls
  /// in history order: the initial part, each column after the other, the final part.
  package func sequentialThroughput(shape: Configuration.Shape, duration: Duration) -> Double {
    let spec = spec
    let generator = ScenarioGenerator(spec: spec, shape: shape)
    let started = MonotonicInstant.now()
    let deadline = Deadline.after(duration, from: started)
    var runs = 0
    var index = 0
    while !deadline.hasPassed {
      guard
        let prepared = try? PreparedScenario(
          generator.scenario(seed: 0xBE7C, index: index), spec: spec)
      else { return 0 }
      index += 1
      // As many runs of each scenario as schedules of it are explored.
      for _ in 0..<100 {
        prepared.performInTurn(on: spec.make())
        runs += 1
      }
    }
    return started.elapsed.rate(of: runs)
  }

  /// Random schedules per second of the first scenario of `shape`, run and checked, over about `duration`.
  package func scheduleThroughput(shape: Configuration.Shape, duration: Duration) -> Double {
    let spec = spec
    let generator = ScenarioGenerator(spec: spec, shape: shape)
    let runner = ScheduleScenarioRunner(
      spec: spec, settings: ScheduleSettings(schedules: 100))
    let started = MonotonicInstant.now()
    let deadline = Deadline.after(duration, from: started)
    var schedules = 0
    var index = 0
    while !deadline.hasPassed {
      let scenario = generator.scenario(seed: 0xBE7C, index: index)
      guard
        let result = try? runner.run(
          RunRequest(
            scenario: scenario, seed: UInt64(index), invocations: 100, untilFirstFailure: false))
      else { return 0 }
      schedules += result.invocations
      index += 1
    }
    return started.elapsed.rate(of: schedules)
  }
}

/// What one search of a scenario's schedules ran: how many, whether any failed, whether it ran out of schedules before its cap.
package struct ScenarioExploration: Hashable, Sendable {
  /// The schedules run.
  package var schedules: Int
  /// Whether any of them failed.
  package var failed: Bool
  /// Whether the strategy had no schedule left before the cap: the search covered everything it covers.
  package var complete: Bool
}

extension Checkable {
  /// Runs every schedule `settings`' strategy gives each of the first `scenarios` scenarios of `shape`, up to its budget, failures included.
  package func explorations(shape: Configuration.Shape, scenarios: Int, settings: ScheduleSettings)
    -> [ScenarioExploration]
  {
    (0..<scenarios).map { exploration(shape: shape, scenario: $0, settings: settings) }
  }

  /// Runs every schedule `settings`' strategy gives scenario number `index` of `shape`, up to its budget, failures included.
  package func exploration(
    shape: Configuration.Shape, scenario index: Int, settings: ScheduleSettings
  )
    -> ScenarioExploration
  {
    let spec = spec
    let generator = ScenarioGenerator(spec: spec, shape: shape)
    let runner = ScheduleScenarioRunner(spec: spec, settings: settings)
    let request = RunRequest(
      scenario: generator.scenario(seed: 0xBE7C, index: index), seed: UInt64(index),
      invocations: settings.schedules, untilFirstFailure: false)
    guard let result = try? runner.run(request) else {
      return ScenarioExploration(schedules: 0, failed: true, complete: false)
    }
    return ScenarioExploration(
      schedules: result.invocations, failed: result.failures > 0,
      complete: result.exploredEverySchedule)
  }
}
