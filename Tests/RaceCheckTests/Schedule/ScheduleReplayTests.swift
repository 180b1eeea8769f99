import Fixtures
import RaceCheck
import RaceCheckSync
import Synchronization
import Testing

/// A register that takes one more lock on every other call, counted across instances: a path no schedule fixes.
final class AlternatingPathRegister: @unchecked Sendable {
  private static let calls = Atomic<Int>(0)
  private let lock = SyncLock()
  private let value = SyncCell<Int>(0, name: "value")

  func get() -> Int {
    if Self.calls.add(1, ordering: .relaxed).oldValue % 2 == 1 {
      lock.withLock {}
    }
    return lock.withLock { value.value }
  }

  static let spec = Spec("AlternatingPathRegister", make: AlternatingPathRegister.init, model: 0) {
    Operation("get", perform: { (register: AlternatingPathRegister) in register.get() }) {
      (state: inout Int) in state
    }
  }
}

extension RaceCheckTestSuite {
  /// A schedule-mode failure's repro file replays its schedule exactly, and a replay that leaves it says where.
  @Suite struct ScheduleReplayTests {
    @Test func reproOfAScheduleFailureReplaysTheSameInterleaving() throws {
      let target = try #require(scheduleTargets.first { $0.name == "AtomicCounter" })
      let report = target.checkable.check(scheduleConfiguration(seed: 1))
      let failure = try #require(report.failure, "\(report)")
      let repro = try Repro.read(from: try #require(failure.reproPath))
      #expect(repro.schedule == failure.trace?.schedule)
      for _ in 1...3 {
        let replay = try target.checkable.replay(repro)
        #expect(replay.divergence == nil)
        #expect(replay.failures == 1)
        #expect(replay.trace == failure.trace)
        #expect(replay.diagnosis?.pattern == .nonAtomicCompoundUpdate)
      }
    }

    @Test func replayOfCodeThatTakesAnotherPathSaysWhereItLeftTheSchedule() throws {
      let spec = AlternatingPathRegister.spec
      var configuration = Configuration(seed: 1)
      configuration.scheduleSettings = ScheduleSettings()
      var repro = Repro(
        target: spec.name, seed: 1, scenarioIndex: 0, configuration: configuration,
        scenario: Scenario(parallel: [[Scenario.Call("get", [])]]), diagnosis: nil)
      // An empty schedule diverges at once but runs to the end: its trace is the schedule taken.
      repro.schedule = []
      let taken = try #require(try spec.replay(repro).trace?.schedule)
      repro.schedule = taken
      // The next call takes the other path, with a different number of scheduling points.
      let replay = try spec.replay(repro)
      let divergence = try #require(replay.divergence)
      #expect(divergence.contains("expected"), "\(divergence)")
      #expect(divergence.contains("scheduling point"), "\(divergence)")
    }
  }
}
