import Fixtures
import RaceCheck

CommandLineDriver.main(
  targets: Catalogue.withScheduleExpectations(Catalogue.targets + Catalogue.isolatedTargets),
  benchmarks: BenchmarkPlan(
    throughputTarget: "LockedCounter", firstFailureTargets: ["LockArray", "AtomicCounter"],
    isolatedFirstFailureTargets: [
      "NSSafeMutableArray", "NSSafeMutableArrayWrites", "ReentrantSyncArray",
    ],
    crashingTarget: "ReentrantSyncArray"))
