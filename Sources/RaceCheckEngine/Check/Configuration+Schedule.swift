extension Configuration {
  /// The budget `racecheck demo --mode schedule` gives each fixture: 20 scenarios of 50 random schedules.
  ///
  /// At most 1,000 schedules in all, of scenarios of 2 threads × 3 operations with 2 before and
  /// 2 after: small enough that every failing row of the catalogue shows within the budget.
  package static func scheduleDemo(seed: UInt64) -> Configuration {
    Configuration(
      seed: seed,
      shape: Shape(threads: 2, operationsPerThread: 3, initialOperations: 2, postOperations: 2),
      scenarios: 20, mode: .schedule(schedules: 50))
  }
}
