import Fixtures
import RaceCheck

var benchmarks = BenchmarkPlan(
  throughputTarget: "LockedCounter", firstFailureTargets: ["LockArray", "AtomicCounter"],
  isolatedFirstFailureTargets: [
    "NSSafeMutableArray", "NSSafeMutableArrayWrites", "ReentrantSyncArray",
  ],
  crashingTarget: "ReentrantSyncArray")
// Schedule mode next to stress mode: every failing row's time and schedules to its first failure,
// in this process, or in a child for the rows whose code can trap under the scheduler (2, 7, 8, 18).
benchmarks.scheduleThroughputTarget = "NSSafeMutableDictionary"
benchmarks.scheduleFirstFailureTargets = [
  "LockArray", "LockArrayReferences", "HLockArray", "UnsafeArray", "SomeStringConcurrentNoBarrier",
  "AtomicCounter", "AtomicPropertyArray", "GlobalQueueBarrierArray", "ReentrantSyncArray",
]
benchmarks.isolatedStressComparisonTargets = [
  "SomeStringConcurrentNoBarrier", "GlobalQueueBarrierArray",
]
benchmarks.isolatedScheduleFirstFailureTargets = [
  "LockArrayEnumerator", "NSSafeMutableArray", "NSSafeMutableArrayWrites", "ZHMutableArray",
]

CommandLineDriver.main(
  targets: Catalogue.withModeExpectations(Catalogue.targets + Catalogue.isolatedTargets),
  benchmarks: benchmarks)
