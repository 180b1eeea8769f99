import Fixtures
import RaceCheck

var benchmarks = BenchmarkPlan(
  throughputTarget: "LockedCounter", firstFailureTargets: ["LockArray", "AtomicCounter"],
  isolatedFirstFailureTargets: [
    "NSSafeMutableArray", "NSSafeMutableArrayWrites", "ReentrantSyncArray",
  ],
  crashingTarget: "ReentrantSyncArray")
// Schedule mode next to stress mode: rows 1, 14, 16 and 21 in this process, row 7 (which traps) in a child.
benchmarks.scheduleThroughputTarget = "NSSafeMutableDictionary"
benchmarks.scheduleFirstFailureTargets = [
  "LockArray", "SomeStringConcurrentNoBarrier", "AtomicCounter", "GlobalQueueBarrierArray",
]
benchmarks.isolatedStressComparisonTargets = [
  "SomeStringConcurrentNoBarrier", "GlobalQueueBarrierArray",
]
benchmarks.isolatedScheduleFirstFailureTargets = ["NSSafeMutableArray"]

CommandLineDriver.main(
  targets: Catalogue.withScheduleExpectations(Catalogue.targets + Catalogue.isolatedTargets),
  benchmarks: benchmarks)
