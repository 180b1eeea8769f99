import Fixtures
import Foundation
import RaceCheck
import Synchronization
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

    @Test func childThatSpinsWithoutProgressIsReportedAsAHang() throws {
      let report = try check(
        withWorker: "exec sh -c 'while :; do :; done'", invocationTimeout: .milliseconds(500),
        minimizes: false)
      let crash = try #require(report.failure?.crash, "\(report)")
      #expect(crash.kind == .hang)
    }

    /// A child the machine keeps from a CPU proves no hang, however long it goes without progress.
    ///
    /// The child spins at `SCHED_IDLE` below a busy thread on every CPU: it is ready all the
    /// time and runs almost never, as a child does beside many busy processes.
    @Test func childThatTheMachineStarvesIsInconclusiveNotHung() throws {
      let hogs = BusyThreads(count: ProcessInfo.processInfo.activeProcessorCount + 1)
      defer { hogs.stop() }
      let report = try check(
        withWorker: "exec chrt --idle 0 sh -c 'while :; do :; done'",
        invocationTimeout: .milliseconds(500), minimizes: false)
      #expect(report.failure == nil, "\(report)")
      guard case .inconclusive(.starved(let starvation)) = report.outcome else {
        Issue.record("expected a starved child, got \(report)")
        return
      }
      #expect(starvation.stalled < .milliseconds(500))
      #expect(starvation.wall >= .seconds(3))
      #expect(report.description.contains("the machine was too busy"), "\(report)")
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

/// Threads that keep CPUs busy until stopped, as other processes on a busy machine do.
private final class BusyThreads: Sendable {
  private let running = Atomic<Bool>(true)

  init(count: Int) {
    for _ in 0..<count {
      Thread.detachNewThread { [self] in
        while running.load(ordering: .relaxed) {}
      }
    }
  }

  func stop() { running.store(false, ordering: .relaxed) }
}
