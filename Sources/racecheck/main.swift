import Fixtures
import RaceCheck

CommandLineDriver.main(
  targets: Catalogue.targets,
  benchmarks: BenchmarkPlan(
    throughputTarget: "LockedCounter", firstFailureTargets: ["LockArray", "AtomicCounter"]))
