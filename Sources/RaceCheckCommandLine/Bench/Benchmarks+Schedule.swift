import RaceCheckEngine

extension Benchmarks {
  /// The scenarios schedule-mode throughput is measured on: two threads of three calls.
  static let twoByThree = Configuration.Shape(
    threads: 2, operationsPerThread: 3, initialOperations: 0, postOperations: 0)

  /// Measures schedule mode: schedules per second, the primitives' overhead with no scheduler, and time to first failure.
  static func runSchedulePart(
    _ plan: BenchmarkPlan, target: (String) throws(Error) -> Target, duration: Duration,
    record: (BenchmarkResult) -> Void
  ) throws(Error) {
    if let name = plan.scheduleThroughputTarget {
      scheduleThroughput(
        of: try target(name).checkable, named: name, duration: duration, record: record)
      // The same dictionary scheduled through the interposer and through RaceCheckSync.
      for (variant, spec) in [
        (
          "interposed",
          BarrierDictionaries.spec(BarrierDictionaries.Interposed.self) as any Checkable
        ),
        ("RaceCheckSync", BarrierDictionaries.spec(BarrierDictionaries.Primitives.self)),
      ] {
        scheduleThroughput(
          of: spec, named: "BarrierDictionary-\(variant)", duration: duration, record: record)
      }
    }
    for name in plan.scheduleThroughputTargets {
      scheduleThroughput(
        of: try target(name).checkable, named: name, duration: duration, record: record)
    }
    if plan.scheduleThroughputTarget != nil || !plan.scheduleFirstFailureTargets.isEmpty {
      let sync = PrimitiveOverhead.queueSync(iterations: 200_000)
      record(BenchmarkResult(name: "raw-queue-sync-ns", value: rounded(sync.raw), unit: "ns"))
      record(
        BenchmarkResult(name: "sync-queue-sync-ns", value: rounded(sync.primitive), unit: "ns"))
      record(
        BenchmarkResult(
          name: "sync-queue-overhead-percent",
          value: rounded((sync.primitive / sync.raw - 1) * 100), unit: "%"))
      let lock = PrimitiveOverhead.lock(iterations: 1_000_000)
      record(
        BenchmarkResult(
          name: "sync-lock-overhead-percent",
          value: rounded((lock.primitive / lock.raw - 1) * 100), unit: "%"))
      for (call, figure) in [
        ("queue-sync", InterposerOverhead.queueSync(iterations: 200_000)),
        ("nslock", InterposerOverhead.lock(iterations: 1_000_000)),
      ] {
        record(
          BenchmarkResult(
            name: "interposer-\(call)-added-ns", value: rounded(figure.added), unit: "ns"))
        record(
          BenchmarkResult(
            name: "interposer-\(call)-overhead-percent", value: rounded(figure.percent),
            unit: "%"))
      }
      record(
        BenchmarkResult(
          name: "interposer-access-added-ns",
          value: rounded(InterposerOverhead.access(iterations: 1_000_000)), unit: "ns"))
    }
    for name in plan.scheduleFirstFailureTargets {
      let checkable = try target(name).checkable
      var times: [Double] = []
      var schedules: [Double] = []
      for seed in plan.seeds {
        var configuration = Configuration.scheduleDemo(seed: seed)
        configuration.minimizes = false
        let report = checkable.check(configuration)
        if let found = report.failure?.timeToFind {
          times.append(found.milliseconds)
          schedules.append(Double(report.invocations))
        }
      }
      record(
        BenchmarkResult(
          name: "schedule-first-failure-median-ms/\(name)", value: median(times), unit: "ms"))
      record(
        BenchmarkResult(
          name: "schedule-first-failure-median-schedules/\(name)", value: median(schedules),
          unit: "schedules"))
    }
  }

  /// Records `checkable`'s schedules per second on 2 × 3 scenarios, the same calls' runs per second made in turn with no scheduler, and the share of that limit the schedules reach.
  private static func scheduleThroughput(
    of checkable: any Checkable, named name: String, duration: Duration,
    record: (BenchmarkResult) -> Void
  ) {
    let schedules = checkable.scheduleThroughput(shape: twoByThree, duration: duration)
    let bare = checkable.sequentialThroughput(shape: twoByThree, duration: duration)
    record(
      BenchmarkResult(
        name: "schedules-per-second/\(name)/2x3", value: schedules.rounded(), unit: "schedules/s"))
    record(
      BenchmarkResult(
        name: "bare-runs-per-second/\(name)/2x3", value: bare.rounded(), unit: "runs/s"))
    record(
      BenchmarkResult(
        name: "schedules-to-bare-runs/\(name)/2x3",
        value: bare > 0 ? (schedules / bare * 10_000).rounded() / 10_000 : 0, unit: "ratio"))
  }

  private static func rounded(_ value: Double) -> Double {
    (value * 10).rounded() / 10
  }
}
