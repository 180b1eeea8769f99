import Fixtures
import RaceCheck
import Testing

extension RaceCheckTestSuite {
  @Suite
  struct ScheduleBudgetTests {
    @Test func randomAndPCTWalksGiveTheirFirstScenariosFewerSchedules() {
      for strategy in [ScheduleSettings.Strategy.random, .pct] {
        let settings = ScheduleSettings(strategy: strategy)
        #expect((0..<6).map(settings.schedules(forScenario:)) == [10, 20, 30, 40, 50, 50])
      }
      let small = ScheduleSettings(schedules: 15)
      #expect((0..<3).map(small.schedules(forScenario:)) == [10, 15, 15])
    }

    @Test func anExhaustiveSearchGetsItsWholeBudgetForEveryScenario() {
      let settings = ScheduleSettings(strategy: .exhaustive)
      #expect((0..<3).map(settings.schedules(forScenario:)) == [50, 50, 50])
    }

    @Test func theSearchSpendsTheRampedBudgetOnAPassingSpec() throws {
      let target = try #require(scheduleTargets.first { $0.name == "CounterActor" })
      var configuration = scheduleConfiguration(seed: 1)
      configuration.scenarios = 3
      let report = target.checkable.check(configuration)
      #expect(report.verdict == .pass)
      #expect(report.invocations == 10 + 20 + 30)
    }

    /// The failing `async` rows, whose first scenarios are the likeliest to hold no bug at all.
    static let failingActorRows = ["BankAccountActor", "ImageCacheActor", "MainActorViewModel"]

    @Test(arguments: failingActorRows)
    func failingActorRowsFailWithinAHundredSchedulesForSeedsOneToTen(name: String) throws {
      let target = try #require(scheduleTargets.first { $0.name == name })
      for seed in UInt64(1)...10 {
        // Four scenarios are exactly the first 10 + 20 + 30 + 40 schedules.
        var configuration = scheduleConfiguration(seed: seed, minimizes: false)
        configuration.scenarios = 4
        let report = target.checkable.check(configuration)
        #expect(report.verdict == .fail, "\(name), seed \(seed): \(report.verdict)")
        #expect(report.invocations <= 100, "\(name), seed \(seed): \(report.invocations) schedules")
      }
    }
  }
}
