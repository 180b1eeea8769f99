import Fixtures
import Foundation
import RaceCheck
import Testing

extension RaceCheckTestSuite {
  /// Children that misbehave — killed, exiting early, writing garbage, hanging — are each reported as what they are.
  ///
  /// Each test starts a small shell script in the worker's place, so the fault is certain.
  @Suite struct IsolatedFaultTests {
    @Test func childKilledBySIGKILLFromOutsideIsNotBlamedOnTheCodeUnderTest() throws {
      let report = try check(withWorker: "kill -9 $$")
      #expect(report.failure == nil, "\(report)")
      guard case .killedFromOutside(let signal, let attempts) = report.outcome else {
        Issue.record("expected an outside kill, got \(report)")
        return
      }
      #expect(signal == 9)
      #expect(attempts == 3)
      #expect(report.description.contains("killed from outside"), "\(report)")
    }

    @Test func childThatExitsEarlyIsReportedWithItsStatus() throws {
      let report = try check(withWorker: "exit 3")
      let crash = try #require(report.failure?.crash, "\(report)")
      #expect(crash.kind == .exit)
      #expect(crash.detail?.contains("exited with status 3") == true, "\(report)")
    }

    @Test func childThatWritesGarbageInsteadOfAReportIsReportedWithWhatItWrote() throws {
      let report = try check(withWorker: "echo 'not a report' >&3; exit 0")
      let crash = try #require(report.failure?.crash, "\(report)")
      #expect(crash.kind == .exit)
      #expect(crash.detail?.contains("not a report") == true, "\(report)")
    }

    @Test func childThatMakesNoProgressIsReportedAsAHang() throws {
      let report = try check(
        withWorker: "exec sleep 60", invocationTimeout: .milliseconds(500), minimizes: false)
      let crash = try #require(report.failure?.crash, "\(report)")
      #expect(crash.kind == .hang)
      #expect(report.failure?.kind == .hang)
    }

    @Test func childThatExitsCleanlyWithoutAWordIsReportedAsABrokenSetup() throws {
      let report = try check(withWorker: "exit 0")
      #expect(report.failure == nil)
      let message = try #require(report.specError?.message, "\(report)")
      #expect(message.contains("the isolated child exited without checking"), "\(report)")
    }

    @Test func childStandardErrorIsKeptInTheReport() throws {
      let report = try check(withWorker: "echo 'the code under test complained' >&2; exit 5")
      let crash = try #require(report.failure?.crash, "\(report)")
      #expect(crash.standardError?.contains("the code under test complained") == true, "\(report)")
    }

    /// Runs an isolated check whose child is a shell script with `body`, instead of a racecheck worker.
    ///
    /// A hang's shrinking spends a timeout on every candidate; `minimizes` turns it off.
    private func check(
      withWorker body: String, invocationTimeout: Duration = .seconds(10), minimizes: Bool = true
    ) throws -> CheckReport {
      let script = FileManager.default.temporaryDirectory
        .appendingPathComponent("racecheck-fake-worker-\(UUID().uuidString).sh")
      try "#!/bin/sh\n\(body)\n".write(to: script, atomically: true, encoding: .utf8)
      defer { try? FileManager.default.removeItem(at: script) }
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
      let target = try #require(Catalogue.targets.first { $0.name == "LockedCounter" })
      var configuration = Configuration.demo(seed: 1)
      configuration.hangTimeout = invocationTimeout
      configuration.minimizes = minimizes
      return target.check(configuration, worker: WorkerCommand(executable: script.path))
    }
  }
}
