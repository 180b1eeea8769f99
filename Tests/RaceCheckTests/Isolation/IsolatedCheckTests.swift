import Fixtures
import Foundation
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

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

    @Test func uncheckedAsyncWriteCrashesOnADispatchWorkerAndTheWriteIsNamed() throws {
      let report = try isolatedCheck("NSSafeMutableArrayWrites")
      let failure = try #require(report.failure, "\(report)")
      let crash = try #require(failure.crash)
      #expect(crash.runnerThread == nil, "\(report)")
      #expect(failure.diagnosis.pattern == .uncheckedIndexInAsyncWrite, "\(report)")
      let writes =
        (failure.scenario.initial + failure.scenario.parallel.flatMap { $0 } + failure.scenario.post)
        .filter {
          ["insert", "remove", "replace"].contains($0.operation)
        }
      #expect(
        writes.contains { failure.diagnosis.evidence.hasPrefix($0.description) }, "\(report)")
    }

    @Test func crashIsWrittenToAReproFileWhoseReplayCrashesAgain() throws {
      let report = try isolatedCheck("NSSafeMutableArray")
      let path = try #require(report.failure?.reproPath, "\(report)")
      let repro = try Repro.read(from: path)
      #expect(repro.failure == .crash)
      #expect(repro.endsTheProcess)
      let (target, _) = try isolated("NSSafeMutableArray", seed: 1)
      let replay = try target.replay(
        repro, worker: WorkerCommand(executable: try BuildProducts.path(of: "racecheck")))
      #expect(replay.failures == 1)
      #expect(replay.crash?.message == "Index out of range", "\(replay)")
      #expect(replay.diagnosis?.pattern == .unsignedUnderflowBoundsCheck)
    }

    @Test func aCrashInTheSchedulersOwnCodeIsRaceChecksBugNotAVerdictOnTheSubject() throws {
      let (target, demo) = try isolated("UnsafeArray", seed: 1)
      var configuration = demo
      configuration.scheduleSettings = ScheduleSettings(schedules: 5)
      configuration.scheduleSettings?.injectedFault = .crashInAccessHook
      let report = target.check(
        configuration, worker: WorkerCommand(executable: try BuildProducts.path(of: "racecheck")))
      let fault = try #require(report.internalFault, "\(report)")
      #expect(report.failure == nil)
      #expect(fault.signal == "SIGSEGV")
      #expect(fault.function?.contains("commitInjectedFault") == true, "\(report)")
      #expect(report.description.contains("This is a racecheck bug, not a fault of UnsafeArray"))
      #expect(ExitStatus.of(report) == .internalError)
    }

    /// Runs `name`'s check in a child started from the built `racecheck` executable.
    private func isolatedCheck(_ name: String, seed: UInt64 = 1) throws -> CheckReport {
      let (target, configuration) = try isolated(name, seed: seed)
      return target.check(
        configuration, worker: WorkerCommand(executable: try BuildProducts.path(of: "racecheck")))
    }

    /// An isolated check of `name` at the demo's budget, its child the built `racecheck` executable.
    private func isolated(_ name: String, seed: UInt64) throws -> (Target, Configuration) {
      let fixture = try #require(Catalogue.isolatedFixtures.first { $0.target.name == name })
      var configuration = Configuration.demo(seed: seed)
      configuration.reproDirectory = FileManagerTemporary.directory
      return (fixture.target, configuration)
    }
  }
}
