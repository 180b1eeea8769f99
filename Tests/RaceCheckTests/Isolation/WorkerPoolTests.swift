import Fixtures
import Foundation
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

#if canImport(Glibc)
  import Glibc
#endif

extension RaceCheckTestSuite {
  /// A worker started ahead of its check gives the evidence a worker started on demand gives, and a spare that cannot stand for one is replaced by one started on demand.
  ///
  /// Each test checks `ReentrantSyncArray`, whose first `addIfAbsent` always traps in
  /// libdispatch, through pools of its own that start no spares unless asked.
  @Suite struct WorkerPoolTests {
    @Test func crashInASpareGivesTheEvidenceOfACrashInAWorkerStartedOnDemand() throws {
      let onDemand = WorkerPool(startsSpares: false)
      let cold = try crashReport(pool: onDemand)
      #expect(onDemand.statistics == .init(sparesTaken: 0, startedOnDemand: 1, sparesDiscarded: 0))

      let ahead = WorkerPool(startsSpares: false)
      try startSpare(in: ahead)
      let warm = try crashReport(pool: ahead)
      #expect(ahead.statistics == .init(sparesTaken: 1, startedOnDemand: 0, sparesDiscarded: 0))

      let coldCrash = try #require(cold.failure?.crash, "\(cold)")
      let warmCrash = try #require(warm.failure?.crash, "\(warm)")
      #expect(warmCrash.kind == .crash)
      #expect(warmCrash.signal == coldCrash.signal)
      #expect(warmCrash.functions == coldCrash.functions, "\(warm)\n\(cold)")
      #expect(warmCrash.functions.contains { $0.contains("ReentrantSyncArray.contains") })
      #expect(warmCrash.inFlight == coldCrash.inFlight)
      #expect(warmCrash.inFlight.contains { $0.call.operation == "addIfAbsent" }, "\(warm)")
      #expect(warmCrash.invocation == coldCrash.invocation)
      #expect(warm.failure?.diagnosis.pattern == .syncOnCurrentQueue, "\(warm)")
    }

    @Test func spareKilledBeforeItsCheckIsReplacedByAWorkerStartedOnDemand() throws {
      let pool = WorkerPool(startsSpares: false)
      let spare = try startSpare(in: pool)
      #expect(kill(spare, SIGKILL) == 0)
      // Until it has died (left unreaped for the pool), the spare would be taken, found dead of
      // an outside kill, and the check run again, which is the other way to the same evidence.
      var info = siginfo_t()
      #expect(waitid(P_PID, id_t(spare), &info, WEXITED | WNOWAIT) == 0)
      let report = try crashReport(pool: pool)
      #expect(pool.statistics == .init(sparesTaken: 0, startedOnDemand: 1, sparesDiscarded: 1))
      let crash = try #require(report.failure?.crash, "\(report)")
      #expect(crash.signal == "SIGILL")
      #expect(crash.inFlight.contains { $0.call.operation == "addIfAbsent" }, "\(report)")
    }

    @Test func spareStartedBeforeTheEnvironmentChangedIsNotUsed() throws {
      let pool = WorkerPool(startsSpares: false)
      try startSpare(in: pool)
      setenv("RACECHECK_WORKER_POOL_TEST", "changed", 1)
      defer { unsetenv("RACECHECK_WORKER_POOL_TEST") }
      let report = try crashReport(pool: pool)
      #expect(pool.statistics == .init(sparesTaken: 0, startedOnDemand: 1, sparesDiscarded: 1))
      #expect(report.failure?.crash?.signal == "SIGILL", "\(report)")
    }

    @Test func handingOutAWorkerStartsTheNextSpare() throws {
      let pool = WorkerPool()
      defer { pool.discardSpares() }
      _ = try crashReport(pool: pool)
      // The spare starts on a thread of its own; the bound only keeps a broken build from hanging.
      for _ in 0..<1_000 where pool.spareCount == 0 { usleep(10_000) }
      #expect(pool.spareCount == 1)
      _ = try crashReport(pool: pool)
      #expect(pool.statistics.sparesTaken >= 1)
    }

    @Test func workersAskedForInQuickSuccessionKeepTwoSparesBootingAhead() throws {
      // Any two checks count as in quick succession here, however slow the machine.
      let pool = WorkerPool(quickSuccession: .seconds(600))
      defer { pool.discardSpares() }
      _ = try crashReport(pool: pool)
      _ = try crashReport(pool: pool)
      // The spares start on a thread of their own; the bound only keeps a broken build from hanging.
      for _ in 0..<1_000 where pool.spareCount < 2 { usleep(10_000) }
      #expect(pool.spareCount == WorkerPool.sparesPerJob)
    }

    /// The command that starts the built `racecheck` as a worker, from `pool`.
    private func command(pool: WorkerPool) throws -> WorkerCommand {
      WorkerCommand(executable: try BuildProducts.path(of: "racecheck"), pool: pool)
    }

    /// Starts a spare in `pool` for the checks of ``crashReport(pool:)``, and returns its process id.
    @discardableResult
    private func startSpare(in pool: WorkerPool) throws -> Int32 {
      let command = try command(pool: pool)
      return try pool.startSpare(
        for: command, job: WorkerJob(target: "ReentrantSyncArray", command: command))
    }

    /// An isolated check of `ReentrantSyncArray` at the demo's budget, not shrunk, its workers from `pool`.
    private func crashReport(pool: WorkerPool) throws -> CheckReport {
      let fixture = try #require(
        Catalogue.isolatedFixtures.first { $0.target.name == "ReentrantSyncArray" })
      var configuration = Configuration.demo(seed: 1)
      configuration.minimizes = false
      configuration.reproDirectory = FileManagerTemporary.directory
      return fixture.target.check(configuration, worker: try command(pool: pool))
    }
  }
}
