import CachedStoreExample
import EtcdExample
import Fixtures
import RaceCheckCommandLine

var benchmarks = BenchmarkPlan(
  throughputTarget: "LockedCounter",
  firstFailureTargets: [
    "LockArray", "AtomicCounter", "BankAccountActor", "ImageCacheActor", "MainActorViewModel",
  ],
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
  "BankAccountActor", "ImageCacheActor", "MainActorViewModel",
]
// The rows of async code: every job of the concurrency runtime is a block the scheduler runs.
benchmarks.scheduleThroughputTargets = [
  "BankAccountActor", "ImageCacheActor", "CounterActor", "MainActorViewModel",
  "TaskGroupAccumulator",
]
benchmarks.isolatedStressComparisonTargets = [
  "SomeStringConcurrentNoBarrier", "GlobalQueueBarrierArray",
]
benchmarks.isolatedScheduleFirstFailureTargets = [
  "LockArrayEnumerator", "NSSafeMutableArray", "NSSafeMutableArrayWrites", "ZHMutableArray",
]
// Partial-order reduction against the unbounded depth-first search: every row schedule mode
// checks in this process.
benchmarks.reductionTargets = (Catalogue.fixtures + Catalogue.isolatedFixtures)
  .filter { !Catalogue.rowsCrashingInScheduleMode.contains($0.row) }.map(\.target.name)

CommandLineDriver.main(
  targets: Catalogue.withModeExpectations(Catalogue.targets + Catalogue.isolatedTargets)
    + Catalogue.explorationTargets,
  workloads: CachedStoreWorkloads.targets + EtcdWorkloads.targets,
  benchmarks: benchmarks)
