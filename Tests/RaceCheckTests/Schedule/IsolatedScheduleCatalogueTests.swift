import Fixtures
import RaceCheck
import Testing

extension RaceCheckTestSuite {
  /// The rows whose code can trap reach their verdict in schedule mode too, in an isolated child, and the same seed finds the same failure by the same interleaving.
  @Suite struct IsolatedScheduleCatalogueTests {
    static var rows: [Int] { Catalogue.rowsCrashingInScheduleMode.sorted() }

    /// The rows of ``rows`` that must fail; row 23 traps only by contract, and passes.
    static var failingRows: [Int] {
      rows.filter { row in (try? target(row: row).scheduleExpectation?.verdict) == .fail }
    }

    static func target(row: Int) throws -> Target {
      let fixture = try #require(
        (Catalogue.fixtures + Catalogue.isolatedFixtures).first { $0.row == row })
      return try #require(
        Catalogue.withModeExpectations([fixture.target]).first)
    }

    static func check(_ target: Target, seed: UInt64, minimizes: Bool = true) throws -> CheckReport
    {
      target.check(
        scheduleConfiguration(seed: seed, minimizes: minimizes),
        worker: WorkerCommand(executable: try BuildProducts.path(of: "racecheck")))
    }

    @Test(arguments: rows)
    func trappingRowReachesItsVerdictInScheduleMode(row: Int) throws {
      let target = try Self.target(row: row)
      let expectation = try #require(target.scheduleExpectation)
      let report = try Self.check(target, seed: 1)
      #expect(
        expectation.isMet(by: report),
        "row \(row): expected \(expectation), got \(report.verdict) \(report.failure?.diagnosis.pattern.rawValue ?? "")\n\(report)"
      )
      guard expectation.verdict == .fail else { return }
      let failure = try #require(report.failure)
      // Every scenario before the failing one ran all its schedules (random walk).
      let perScenario = try #require(report.configuration.scheduleSettings?.schedules)
      let index = try #require(failure.crash?.invocation ?? failure.scheduleIndex)
      let schedules = failure.scenarioIndex * perScenario + index + 1
      #expect(schedules <= 1_000, "row \(row): failed after \(schedules) schedules")
    }

    // Row 2 fails several ways under the scheduler: its enumerator's reads of the storage race
    // with a write inside the queue, crash, or return a snapshot no order explains.
    @Test(arguments: [1, 8] as [UInt64])
    func enumeratorReadAgainstAWriteInsideTheQueueIsEscapedLiveStorage(seed: UInt64) throws {
      let report = try Self.check(try Self.target(row: 2), seed: seed)
      #expect(
        report.failure?.diagnosis.pattern == .escapedLiveStorage, "seed \(seed):\n\(report)")
    }

    @Test(arguments: failingRows)
    func sameSeedGivesTheSameFailureTenTimes(row: Int) throws {
      let target = try Self.target(row: row)
      let first = try #require(try Self.check(target, seed: 3, minimizes: false).failure)
      let trace = try #require(first.trace, "row \(row): no interleaving up to the failure")
      #expect(trace.steps.contains { $0.isOperation })
      // Ten identical runs show the determinism; more only cost minutes on a busy machine.
      for run in 2...10 {
        let again = try #require(try Self.check(target, seed: 3, minimizes: false).failure)
        #expect(again.scenario == first.scenario, "row \(row), run \(run)")
        #expect(again.diagnosis == first.diagnosis, "row \(row), run \(run)")
        #expect(again.scheduleIndex == first.scheduleIndex, "row \(row), run \(run)")
        #expect(again.crash?.invocation == first.crash?.invocation, "row \(row), run \(run)")
        #expect(again.crash?.inFlight == first.crash?.inFlight, "row \(row), run \(run)")
        #expect(again.crash?.functions == first.crash?.functions, "row \(row), run \(run)")
        #expect(again.trace == trace, "row \(row), run \(run)")
      }
    }
  }
}
