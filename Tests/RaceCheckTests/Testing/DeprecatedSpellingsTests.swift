import Foundation
import Testing

@testable import RaceCheckEngine

// Every spelling deprecated by issue 49 is called here, so this file's deprecation warnings
// are expected: they go when the spellings do, one release after.

extension RaceCheckTestSuite {
  /// The spellings deprecated for one release still compile and do what their replacements do.
  @Suite struct DeprecatedSpellingsTests {
    @Test func exploreWithInlineSettingsRunsAsItsConfigurationDoes() {
      let old = explore("inline settings", schedules: 20, seed: 3, isolated: false) {}
      let new = explore(
        "inline settings",
        configuration: Configuration.Exploration(schedules: 20, seed: 3, isolated: false)
      ) {}
      #expect(old.verdict == .pass)
      #expect(old.configuration.scheduleSettings == new.configuration.scheduleSettings)
      #expect(old.configuration.seed == new.configuration.seed)
      #expect(old.configuration.isolated == new.configuration.isolated)
      #expect(old.scenarios == new.scenarios)
    }

    @Test func workloadInitializerWithInlineSettingsMakesTheSameConfiguration() {
      let old = Workload(
        WorkloadTests.lockedSpec, clients: 3, limit: .operations(50),
        operationTimeout: .seconds(2), seed: 9, checkTimeout: .seconds(4), weights: ["get": 2])
      let new = Configuration.Workload(
        clients: 3, limit: .operations(50), operationTimeout: .seconds(2), seed: 9,
        checkTimeout: .seconds(4), weights: ["get": 2])
      #expect(old.configuration.clients == new.clients)
      #expect(old.configuration.limit == new.limit)
      #expect(old.configuration.operationTimeout == new.operationTimeout)
      #expect(old.configuration.seed == new.seed)
      #expect(old.configuration.checkTimeout == new.checkTimeout)
      #expect(old.configuration.weights == new.weights)
      #expect(old.clients == 3 && old.seed == 9 && old.weights == ["get": 2])
    }

    @Test func workloadWithInlineSettingsRunsAndPasses() {
      let report = workload(
        WorkloadTests.lockedSpec, clients: 2, duration: .milliseconds(200), seed: 4)
      #expect(report?.verdict.verdict == .linearizable)
      #expect(report?.clients == 2)
    }

    @Test func workloadTargetWithAVerdictExpectsTheSameExpectation() {
      let passing = WorkloadTarget("passing", expectation: Verdict.pass) { _ in
        throw CancellationError()
      }
      let failing = WorkloadTarget("failing", expectation: Verdict.fail) { _ in
        throw CancellationError()
      }
      #expect(passing.expectation == .pass)
      #expect(failing.expectation == .fail)
    }

    @Test func configurationWithAnOptionalScheduleIsTheSameMode() {
      let settings = ScheduleSettings(strategy: .pct, depth: 2, schedulesPerScenario: 30)
      #expect(settings.schedules == 30 && settings.schedulesPerScenario == 30)
      let old = Configuration(seed: 5, schedule: settings)
      #expect(old == Configuration(seed: 5, mode: .schedule(settings)))
      #expect(old.schedule == settings)
      var stress = old
      stress.schedule = nil
      #expect(stress.mode == .stress)
      #expect(Configuration(schedule: nil) == Configuration())
    }

    @Test func aReproFileOfEarlierReleasesDecodesItsScheduleMode() throws {
      let json = """
        {"seed": 3, "schedule": {"strategy": "dpor", "depth": 3, "preemptionBound": 2,
          "schedulesPerScenario": 7, "maxSteps": 100}}
        """
      let decoded = try JSONDecoder().decode(Configuration.self, from: Data(json.utf8))
      let settings = ScheduleSettings(strategy: .dpor, schedules: 7, maxSteps: 100)
      #expect(decoded.mode == .schedule(settings))
      let encoded = try JSONEncoder().encode(decoded)
      #expect(try JSONDecoder().decode(Configuration.self, from: encoded) == decoded)
      #expect(String(decoding: encoded, as: UTF8.self).contains("schedulesPerScenario"))
    }

    @Test func aReportsSecondsAreItsElapsedTime() {
      var report = CheckReport(target: "HitCounter", seed: 1, configuration: Configuration())
      report.elapsed = .milliseconds(1_500)
      #expect(report.seconds == 1.5)
    }
  }
}
