import Fixtures
import Foundation
import RaceCheck
import Testing

extension RaceCheckTestSuite {
  /// Checks of fixtures that crash, each run by the `racecheck` executable as an isolated child.
  @Suite struct IsolatedCheckTests {
    @Test func syncOnTheCurrentQueueIsReportedAndTheParentSurvives() throws {
      let report = try isolatedCheck("ReentrantSyncArray")
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.kind == .crash)
      #expect(failure.diagnosis.pattern == .syncOnCurrentQueue, "\(report)")
      let crash = try #require(failure.crash)
      #expect(crash.signal == "SIGILL")
      #expect(crash.stack.contains("ReentrantSyncArray.swift"), "\(report)")
      #expect(crash.inFlight.contains { $0.call.operation == "addIfAbsent" }, "\(report)")
    }

    @Test func readOfAnEmptyArrayCrashesInTheFixturesObjectAtIndex() throws {
      let report = try isolatedCheck("NSSafeMutableArray")
      let failure = try #require(report.failure, "\(report)")
      let crash = try #require(failure.crash)
      #expect(crash.message == "Index out of range", "\(report)")
      #expect(crash.stack.contains("NSSafeMutableArray.objectAtIndex"), "\(report)")
      #expect(crash.stack.contains("Fixtures/NSSafeMutableArray.swift"), "\(report)")
    }

    @Test func crashReportIsShrunkToTheCallThatCrashes() throws {
      let report = try isolatedCheck("ReentrantSyncArray")
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.scenario.size < failure.original.size, "\(report)")
      #expect(failure.scenario.allCallNames.contains("addIfAbsent"))
    }

    /// Runs `name`'s check in a child started from the built `racecheck` executable.
    private func isolatedCheck(_ name: String, seed: UInt64 = 1) throws -> CheckReport {
      let fixture = try #require(Catalogue.isolatedFixtures.first { $0.target.name == name })
      var configuration = Configuration.demo(seed: seed)
      configuration.reproDirectory = FileManagerTemporary.directory
      var check = IsolatedCheck(target: fixture.target, configuration: configuration)
      check.executable = try BuildProducts.path(of: "racecheck")
      return check.run()
    }
  }
}
