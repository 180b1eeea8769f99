import Dispatch
import Foundation
import RaceCheck
import Testing

/// A list whose appends take a lock: correct, and the order of two appends is the schedule's.
final class AppendLog: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Int] = []

  func append(_ item: Int) {
    lock.lock()
    items.append(item)
    lock.unlock()
  }

  var snapshot: [Int] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }
}

/// A counter with no synchronization, as a flaky test's shared state often is.
private final class UnguardedTally: @unchecked Sendable {
  var count = 0
}

extension RaceCheckTestSuite {
  @Suite struct ExploreTests {
    /// Two blocks on a concurrent queue append in either order; the body expects one of them.
    @Sendable private static func appendsInOrder() {
      let log = AppendLog()
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) { log.append(1) }
      DispatchQueue.global().async(group: group) { log.append(2) }
      group.wait()
      #expect(log.snapshot == [1, 2])
    }

    @Test func anExpectationOnlySomeSchedulesBreakFailsWithTheScheduleShrunkToNoPreemption() throws
    {
      var report: CheckReport?
      withKnownIssue {
        report = explore(
          "appends in order",
          configuration: Configuration.Exploration(schedules: 200, seed: 1, isolated: false),
          Self.appendsInOrder)
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: appends in order")
      }
      let failure = try #require(report?.failure, "\(report.map(\.description) ?? "no report")")
      #expect(failure.kind == .failedExpectation)
      let text = report?.description ?? ""
      #expect(text.contains("Failed expectations:"), "\(text)")
      #expect(text.contains("(log.snapshot → [2, 1]) == [1, 2]"), "\(text)")
      // The first failing schedule of seed 1 preempts three times; appending 2 first needs none:
      // the second block may simply run first.
      #expect(failure.preemptionsBeforeShrinking == 3, "\(text)")
      #expect(text.contains("0 preemptions, shrunk from 3"), "\(text)")
      #expect(text.contains("✗ Expectation failed"), "\(text)")
      #expect(report?.replayCommand?.hasPrefix("RACECHECK_SEED=0x0000000000000001") == true)
    }

    @Test func anIsolatedExplorationFindsTheSameScheduleInAChild() throws {
      var report: CheckReport?
      withKnownIssue {
        report = explore(
          "appends in order, isolated",
          configuration: Configuration.Exploration(schedules: 200, seed: 1), Self.appendsInOrder)
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: appends in order, isolated")
      }
      let failure = try #require(report?.failure, "\(report.map(\.description) ?? "no report")")
      #expect(failure.kind == .failedExpectation)
      #expect(failure.trace?.preemptions == 0)
      #expect(report?.description.contains("(log.snapshot → [2, 1]) == [1, 2]") == true)
    }

    @Test func aBodyWithNoBadScheduleAmongEveryInterleavingPassesExhaustively() {
      let report = explore(
        "appends, either order",
        configuration: Configuration.Exploration(
          strategy: .dpor, schedules: 100_000, isolated: false)
      ) {
        let log = AppendLog()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { log.append(1) }
        DispatchQueue.global().async(group: group) { log.append(2) }
        group.wait()
        // Not `#expect`: evaluating it takes Swift Testing's own locks, each a step to explore.
        if Set(log.snapshot) != [1, 2] { Issue.record("lost an append") }
      }
      #expect(report.verdict == .pass, "\(report)")
      #expect(
        report.description.contains(
          "passed (exhaustive): every interleaving of this body explored"),
        "\(report)")
    }

    @Test func anUnsynchronizedIncrementIsADataRace() throws {
      var report: CheckReport?
      withKnownIssue {
        report = explore(
          "unguarded tally",
          configuration: Configuration.Exploration(schedules: 100, seed: 1, isolated: false)
        ) {
          let tally = UnguardedTally()
          let group = DispatchGroup()
          for _ in 0..<2 {
            DispatchQueue.global().async(group: group) { tally.count += 1 }
          }
          group.wait()
          #expect(tally.count == 2)
        }
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: unguarded tally")
      }
      let failure = try #require(report?.failure, "\(report.map(\.description) ?? "no report")")
      #expect(failure.kind == .dataRace, "\(report.map(\.description) ?? "")")
      #expect(report?.description.contains("UnguardedTally.count") == true)
    }

    @Test func anErrorTheBodyThrowsFailsTheSchedule() throws {
      struct Refused: Error {}
      var report: CheckReport?
      withKnownIssue {
        report = explore(
          "throws", configuration: Configuration.Exploration(schedules: 10, isolated: false)
        ) { throw Refused() }
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: throws")
      }
      let failure = try #require(report?.failure, "\(report.map(\.description) ?? "no report")")
      #expect(failure.kind == .failedExpectation)
      #expect(report?.description.contains("the body threw Refused()") == true)
    }

    @Test func anAsyncBodysExpectationsAreHeardToo() async throws {
      var report: CheckReport?
      await withKnownIssue {
        report = await explore(
          "async appends",
          configuration: Configuration.Exploration(schedules: 200, seed: 1, isolated: false)
        ) {
          let log = AppendLog()
          async let first: Void = log.append(1)
          async let second: Void = log.append(2)
          _ = await (first, second)
          #expect(log.snapshot == [1, 2])
        }
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: async appends")
      }
      let text = report.map(\.description) ?? "no report"
      let failure = try #require(report?.failure, "\(text)")
      #expect(failure.kind == .failedExpectation, "\(text)")
    }
  }
}
