import Fixtures
import RaceCheck
import Testing

/// The catalogue's targets that schedule mode can check in this process: all but the rows that trap.
let scheduleTargets = Catalogue.withModeExpectations(
  Catalogue.targets + Catalogue.isolatedTargets
).filter { target in
  target.scheduleExpectation != nil
    && !(Catalogue.fixtures + Catalogue.isolatedFixtures).contains {
      $0.target.name == target.name && Catalogue.rowsCrashingInScheduleMode.contains($0.row)
    }
}

/// The names of one target of each schedule expectation among ``scheduleTargets``: the rows the tests check in this process (the demo's schedule steps in CI check every row on several seeds).
let scheduleRepresentatives = representatives(of: scheduleTargets) { $0.scheduleExpectation }

/// The schedule demo's configuration for `seed`, writing no repro files.
func scheduleConfiguration(seed: UInt64, minimizes: Bool = true) -> Configuration {
  var configuration = Configuration.scheduleDemo(seed: seed)
  configuration.minimizes = minimizes
  configuration.reproDirectory = FileManagerTemporary.directory
  return configuration
}

extension RaceCheckTestSuite {
  @Suite
  struct ScheduleCatalogueTests {
    @Test func everyRowButTheTrappingOnesRunsInScheduleMode() {
      let names = Set(scheduleTargets.map(\.name))
      let all = Catalogue.fixtures + Catalogue.isolatedFixtures
      let left = all.filter { !names.contains($0.target.name) }.map(\.row).sorted()
      #expect(left == Catalogue.rowsCrashingInScheduleMode.sorted())
    }

    @Test(arguments: scheduleRepresentatives)
    func rowReachesItsScheduleVerdict(name: String) throws {
      let target = try #require(scheduleTargets.first { $0.name == name })
      let expectation = try #require(target.scheduleExpectation)
      let report = target.checkable.check(scheduleConfiguration(seed: 1))
      #expect(
        expectation.isMet(by: report),
        "\(name): expected \(expectation), got \(report.verdict) \(report.failure?.diagnosis.pattern.rawValue ?? "")\n\(report)"
      )
      if report.failure != nil {
        #expect(report.invocations <= 1_000, "\(name): found after \(report.invocations) schedules")
      }
    }

    @Test(
      arguments: scheduleRepresentatives.filter { name in
        scheduleTargets.first { $0.name == name }?.scheduleExpectation?.verdict == .fail
      })
    func sameSeedGivesTheSameFirstFailingScheduleAndTraceThreeTimes(name: String) throws {
      let target = try #require(scheduleTargets.first { $0.name == name })
      let first = target.checkable.check(scheduleConfiguration(seed: 3, minimizes: false))
      let failure = try #require(first.failure, "\(name): no failure with seed 3")
      #expect(first.invocations <= 1_000)
      // Three identical runs show the determinism; more only cost minutes on a busy machine.
      for run in 2...3 {
        let again = target.checkable.check(scheduleConfiguration(seed: 3, minimizes: false))
        #expect(again.failure?.trace == failure.trace, "\(name): run \(run) has another trace")
        #expect(again.failure?.scenario == failure.scenario, "\(name): run \(run)")
        #expect(again.failure?.scheduleIndex == failure.scheduleIndex, "\(name): run \(run)")
        #expect(again.invocations == first.invocations, "\(name): run \(run)")
      }
    }

    @Test func shrinkingIsDeterministicToo() throws {
      let target = try #require(scheduleTargets.first { $0.name == "AtomicPropertyArray" })
      // Shrinking is deterministic when it runs to its end; the demo's one-second limit can cut
      // it at a different step on a busy machine, so this check gives it time to finish.
      var configuration = scheduleConfiguration(seed: 3)
      configuration.shrinkTimeLimit = .seconds(120)
      let first = target.checkable.check(configuration)
      let second = target.checkable.check(configuration)
      #expect(first.failure?.shrinkingCutShort == false)
      #expect(first.failure?.trace != nil)
      #expect(first.failure?.trace == second.failure?.trace)
      #expect(first.failure?.scenario == second.failure?.scenario)
    }

    @Test func atomicCounterTraceShowsTwoReadsBeforeTwoWrites() throws {
      let target = try #require(scheduleTargets.first { $0.name == "AtomicCounter" })
      let report = target.checkable.check(scheduleConfiguration(seed: 1))
      let trace = try #require(report.failure?.trace, "\(report)")
      let accesses = trace.steps.filter { $0.text.hasPrefix("property 'AtomicCounter._count'") }
      // Somewhere two threads read the count, and only then do both write it.
      let found = accesses.indices.contains { start in
        let window = accesses[start...].prefix(4)
        return window.count == 4
          && window.prefix(2).allSatisfy { $0.text.hasSuffix(" read") }
          && window.suffix(2).allSatisfy { $0.text.hasSuffix(" modify") }
          && Set(window.prefix(2).map(\.thread)).count == 2
      }
      #expect(found, "\(report)")
    }

    @Test func concurrentQueueTraceShowsTwoBlocksInsideAtOnce() throws {
      let target = try #require(
        scheduleTargets.first { $0.name == "SomeStringConcurrentNoBarrier" })
      let report = target.checkable.check(scheduleConfiguration(seed: 1))
      let trace = try #require(report.failure?.trace, "\(report)")
      var inside = 0
      var most = 0
      for step in trace.steps {
        if step.text.hasPrefix("queue.sync enter") { inside += 1 }
        if step.text.hasPrefix("queue.sync exit") { inside -= 1 }
        most = max(most, inside)
      }
      #expect(most >= 2, "\(report)")
    }

    @Test func reentrantSyncIsNamedAsADeadlockNotATrap() throws {
      let target = try #require(scheduleTargets.first { $0.name == "ReentrantSyncArray" })
      let report = target.checkable.check(scheduleConfiguration(seed: 1))
      let failure = try #require(report.failure)
      #expect(failure.kind == .deadlock)
      #expect(failure.diagnosis.pattern == .syncOnCurrentQueue)
    }
  }
}
