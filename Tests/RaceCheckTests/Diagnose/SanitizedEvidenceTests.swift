import CRaceCheckInterposer
import Dispatch
import Fixtures
import Foundation
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// In a `--sanitize=thread` build, correct classes give Thread Sanitizer no report racecheck takes as evidence, and a race keeps its guards.
  ///
  /// They run only in a sanitized test binary (`swift test --sanitize=thread`); CI checks the
  /// same rows on ten seeds with `racecheck demo` in a sanitized build (`.ci/run`).
  @Suite(.serialized, .enabled(if: SanitizerRaceLog.isActive, "needs a --sanitize=thread build"))
  struct SanitizedEvidenceTests {
    @Test func contendedMutexCriticalSectionsGiveNoReport() {
      let log = SanitizerRaceLog()
      log.invocationStarts()
      let handoversBefore = rc_sanitizer_mutex_handovers()
      let store = MutexStore()
      let finished = Self.finishes(within: .seconds(60)) {
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
          for step in 0..<2_000 {
            store.set("k\(step % 4)", thread)
            _ = store["k\(step % 3)"]
          }
        }
      }
      #expect(finished, "the critical sections did not finish within a minute")
      #expect(store.writeCount == 16_000)
      // The check means something only if the mutex met contention and took its library path.
      #expect(rc_sanitizer_mutex_handovers() > handoversBefore)
      #expect(log.takeReport() == nil)
    }

    @Test func eachAccessOfARealReportKeepsItsOwnMutexes() throws {
      let log = SanitizerRaceLog()
      log.invocationStarts()
      let box = LockedBox()
      // Nothing orders the write on its own thread and the read here (a sleep orders nothing
      // for the sanitizer), whichever comes first: the report must give the write its mutex
      // and the read none.
      let finished = Self.finishes(within: .seconds(60)) {
        let writer = Thread { box.lock.withLock { box.value = 2 } }
        writer.start()
        usleep(50_000)
        _ = box.value
        while !writer.isFinished { usleep(1_000) }
      }
      // A report hook that waited for the report's own lock would never finish.
      try #require(finished, "the race and its report did not finish within a minute")
      let record = try #require(log.takeReport())
      #expect(record.mutexes_per_access == 1)
      let (write, read) =
        record.accesses.0.is_write != 0
        ? (record.accesses.0, record.accesses.1) : (record.accesses.1, record.accesses.0)
      #expect(write.is_write == 1 && read.is_write == 0)
      #expect(write.locks_held == 1)
      #expect(read.locks_held == 0)
    }

    /// Runs `body` on a thread of its own and says whether it finished within `limit`: a test that would hang fails instead.
    static func finishes(within limit: Duration, _ body: @escaping @Sendable () -> Void) -> Bool {
      let done = DispatchSemaphore(value: 0)
      Thread {
        body()
        done.signal()
      }.start()
      return done.wait(timeout: .now() + limit.dispatchInterval) == .success
    }

    static let rows = [
      "MutexStore", "SerialQueueCompletionArray", "SerialQueueCopyDictionary",
      "LockedWriteUnlockedRead",
    ]

    // In an isolated child, whose hang timeout ends a child that hangs after a report.
    @Test(arguments: rows)
    func rowReachesItsVerdictWithItsGuardsInAChild(name: String) throws {
      let target = try #require(
        Catalogue.withModeExpectations(Catalogue.targets).first { $0.name == name })
      let expectation = try #require(target.stressExpectation)
      var configuration = Configuration.demo(seed: 1)
      configuration.scenarios = 10
      configuration.hangTimeout = .seconds(30)
      configuration.reproDirectory = FileManagerTemporary.directory
      let report = target.check(
        configuration, worker: WorkerCommand(executable: try BuildProducts.path(of: "racecheck")))
      #expect(expectation.isMet(by: report), "\(report)")
      guard expectation.verdict == .fail else { return }
      let failure = try #require(report.failure, "\(report)")
      let race = try #require(failure.evidence.sanitizerRace, "\(report)")
      if case .sanitizerRace(_, .died) = failure.evidence {
        Issue.record("the child died after its report:\n\(report)")
      }
      // The write held the lock; the read on the main thread held nothing.
      for access in [race.later, race.earlier] {
        #expect(
          access.guarding == (access.isWrite ? "holding 1 lock" : "with no synchronization at all"),
          "\(report)")
      }
    }
  }
}

/// A value written under its lock, and read without it by a test that wants a race.
private final class LockedBox: @unchecked Sendable {
  let lock = NSLock()
  var value = 0
}
