import RaceCheckEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The measurements `racecheck bench` prints: what they run, and their results.
package struct BenchmarkPlan: Sendable {
  /// The target whose stress throughput is measured, recorded and checked against bare.
  package var throughputTarget: String
  /// The targets whose median time to first failure is measured.
  package var firstFailureTargets: [String]
  /// The seeds each time to first failure is measured with; the median is reported.
  package var seeds: [UInt64]
  /// The targets whose median time to first failure is measured in an isolated child, because they crash.
  package var isolatedFirstFailureTargets: [String]
  /// A target that crashes on its first operation, for the cost of handling a crash; nil to skip it.
  package var crashingTarget: String?
  /// The target whose schedule-mode throughput is measured on 2 × 3 scenarios; nil to skip it.
  package var scheduleThroughputTarget: String? = nil
  /// The targets whose median time to first failure is measured in schedule mode, in this process.
  package var scheduleFirstFailureTargets: [String] = []
  /// The targets that trap, whose stress time to first failure is measured in an isolated child to compare with schedule mode.
  package var isolatedStressComparisonTargets: [String] = []
  /// The targets that trap, whose schedule-mode time to first failure is measured in an isolated child.
  package var isolatedScheduleFirstFailureTargets: [String] = []
  /// More targets whose schedule-mode throughput is measured on 2 × 3 scenarios, such as the rows of `async` code.
  package var scheduleThroughputTargets: [String] = []
  /// The targets `racecheck bench dpor` explores exhaustively, in this process, with and without partial-order reduction.
  package var reductionTargets: [String] = []

  /// Creates a plan.
  package init(
    throughputTarget: String, firstFailureTargets: [String], seeds: [UInt64] = Array(1...9),
    isolatedFirstFailureTargets: [String] = [], crashingTarget: String? = nil
  ) {
    self.throughputTarget = throughputTarget
    self.firstFailureTargets = firstFailureTargets
    self.seeds = seeds
    self.isolatedFirstFailureTargets = isolatedFirstFailureTargets
    self.crashingTarget = crashingTarget
  }
}

/// One figure measured by `racecheck bench`.
package struct BenchmarkResult: Hashable, Sendable, Codable {
  /// What was measured, as a stable identifier.
  package var name: String
  /// The figure.
  package var value: Double
  /// Its unit, such as `"invocations/s"` or `"ms"`.
  package var unit: String

  /// Creates a result.
  package init(name: String, value: Double, unit: String) {
    self.name = name
    self.value = value
    self.unit = unit
  }
}

/// Runs a ``BenchmarkPlan``.
package enum Benchmarks {
  /// Why a plan cannot run.
  package enum Error: Swift.Error, CustomStringConvertible, Sendable {
    /// The plan names a target the program does not have.
    case unknownTarget(String)

    package var description: String {
      switch self {
      case .unknownTarget(let name): return "the benchmark plan names an unknown target '\(name)'"
      }
    }
  }

  /// Measures everything in `plan`, calling `progress` with each result as it comes.
  ///
  /// - Parameters:
  ///   - plan: The figures to measure.
  ///   - targets: The targets the plan names.
  ///   - duration: How long each throughput figure is measured for.
  ///   - workerExecutable: The program isolated figures start as a worker; nil skips them.
  ///   - progress: Called with each result as it is measured.
  /// - Returns: The results, in the plan's order.
  /// - Throws: ``Error/unknownTarget(_:)`` when the plan names a target that is not given.
  package static func run(
    _ plan: BenchmarkPlan, targets: [Target], duration: Duration, workerExecutable: String? = nil,
    progress: (BenchmarkResult) -> Void = { _ in }
  ) throws(Error) -> [BenchmarkResult] {
    func target(_ name: String) throws(Error) -> Target {
      guard let target = targets.first(where: { $0.name == name }) else {
        throw .unknownTarget(name)
      }
      return target
    }
    var results: [BenchmarkResult] = []
    func record(_ result: BenchmarkResult) {
      results.append(result)
      progress(result)
    }
    let throughput = try target(plan.throughputTarget)
    let twoByFive = Configuration.Shape(
      threads: 2, operationsPerThread: 5, initialOperations: 0, postOperations: 0)
    // Both sides get the whole duration between them, as two figures of half of it each did.
    let stress = throughput.checkable.stressThroughput(shape: twoByFive, duration: duration * 2)
    for (side, invocations) in [("checked", stress.checked), ("bare", stress.bare)] {
      record(
        BenchmarkResult(
          name: "stress-invocations-per-second/\(throughput.name)/2x5/\(side)",
          value: invocations.rounded(), unit: "invocations/s"))
    }
    record(
      BenchmarkResult(
        name: "stress-checked-to-bare/\(throughput.name)/2x5",
        value: stress.bare > 0 ? (stress.checked / stress.bare * 1000).rounded() / 1000 : 0,
        unit: "ratio"))
    try runSchedulePart(plan, target: target, duration: duration, record: record)
    for name in plan.firstFailureTargets {
      let checkable = try target(name).checkable
      var times: [Double] = []
      for seed in plan.seeds {
        let report = checkable.check(
          Configuration(seed: seed, minimizes: false, reproDirectory: "/dev/null"))
        if let found = report.failure?.timeToFind { times.append(found.milliseconds) }
      }
      record(
        BenchmarkResult(name: "first-failure-median-ms/\(name)", value: median(times), unit: "ms"))
      record(
        BenchmarkResult(
          name: "first-failure-found/\(name)", value: Double(times.count),
          unit: "of \(plan.seeds.count) seeds"))
    }
    guard let workerExecutable else { return results }
    func isolated(_ target: Target, _ configuration: Configuration) -> CheckReport {
      target.check(configuration, worker: WorkerCommand(executable: workerExecutable))
    }
    // A child that runs one invocation of a passing target costs what starting a child costs.
    // Back to back, each check takes a spare started while an earlier check ran, which may
    // still be booting; after a pause, the spare has booted, as for a check that does not
    // follow another at once.
    for pause in [Duration.zero, .milliseconds(200)] {
      var starts: [Double] = []
      for _ in 0..<10 {
        if pause > .zero { usleep(UInt32(pause.nanoseconds / 1_000)) }
        let report = isolated(
          throughput,
          Configuration(seed: 1, scenarios: 1, invocations: 1, reproDirectory: "/dev/null"))
        starts.append(report.elapsed.milliseconds)
      }
      record(
        BenchmarkResult(
          name: pause == .zero ? "child-start-ms" : "child-start-after-pause-ms",
          value: median(starts), unit: "ms"))
    }
    if let name = plan.crashingTarget {
      let crashing = try target(name)
      let deadline = Deadline.after(duration)
      let started = MonotonicInstant.now()
      var crashes = 0
      while !deadline.hasPassed {
        let report = isolated(
          crashing, Configuration(seed: 1, minimizes: false, reproDirectory: "/dev/null"))
        if report.failure?.kind == .crash { crashes += 1 }
      }
      let elapsed = started.elapsed
      record(
        BenchmarkResult(
          name: "crashes-handled-per-second/\(name)",
          value: (elapsed.rate(of: crashes) * 10).rounded() / 10,
          unit: "crashes/s"))
    }
    for name in plan.isolatedStressComparisonTargets {
      let checkable = try target(name)
      var times: [Double] = []
      for seed in plan.seeds.prefix(3) {
        let report = isolated(
          checkable,
          Configuration(
            seed: seed, timeLimit: .seconds(10), minimizes: false, reproDirectory: "/dev/null"))
        if let found = report.failure?.timeToFind { times.append(found.milliseconds) }
      }
      record(
        BenchmarkResult(
          name: "stress-first-failure-median-ms/\(name)", value: median(times), unit: "ms"))
    }
    for name in plan.isolatedFirstFailureTargets {
      let crashing = try target(name)
      var times: [Double] = []
      for seed in plan.seeds {
        let report = isolated(
          crashing, Configuration(seed: seed, minimizes: false, reproDirectory: "/dev/null"))
        if report.failure != nil { times.append(report.elapsed.milliseconds) }
      }
      record(
        BenchmarkResult(
          name: "isolated-first-failure-median-ms/\(name)", value: median(times), unit: "ms"))
    }
    for name in plan.isolatedScheduleFirstFailureTargets {
      let crashing = try target(name)
      var times: [Double] = []
      var schedules: [Double] = []
      for seed in plan.seeds {
        var configuration = Configuration.scheduleDemo(seed: seed)
        configuration.minimizes = false
        configuration.reproDirectory = "/dev/null"
        let report = isolated(crashing, configuration)
        if report.failure != nil {
          times.append(report.elapsed.milliseconds)
          schedules.append(Double(report.invocations))
        }
      }
      record(
        BenchmarkResult(
          name: "isolated-schedule-first-failure-median-ms/\(name)", value: median(times),
          unit: "ms"))
      record(
        BenchmarkResult(
          name: "isolated-schedule-first-failure-median-schedules/\(name)",
          value: median(schedules), unit: "schedules"))
    }
    return results
  }

  /// The median of `values`, rounded to thousandths; infinity when there are none.
  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .infinity }
    return (values.sorted()[values.count / 2] * 1000).rounded() / 1000
  }
}
