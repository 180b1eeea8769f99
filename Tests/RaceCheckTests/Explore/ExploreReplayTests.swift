import Dispatch
import Foundation
import RaceCheck
import RaceCheckEngine
import Testing

/// The order two appends came in was not the one expected: what the bodies below throw, so that no test framework's locks add scheduling points.
private struct OutOfOrder: Error {
  var items: [Int]
}

extension RaceCheckTestSuite {
  /// A failing exploration's replay line carries its schedule, and a body given that schedule (as `RACECHECK_SCHEDULE` gives it) runs it alone.
  @Suite struct ExploreReplayTests {
    /// Two blocks on a concurrent queue append in either order; the body wants them in order.
    @Sendable private static func appendsInOrder() throws {
      let items = appended()
      if items != [1, 2] { throw OutOfOrder(items: items) }
    }

    /// The same appends, fixed: either order is right.
    @Sendable private static func appendsInEitherOrder() throws {
      let items = appended()
      if items.sorted() != [1, 2] { throw OutOfOrder(items: items) }
    }

    /// What two blocks on a concurrent queue appended, in the order they did.
    private static func appended() -> [Int] {
      let log = AppendLog()
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) { log.append(1) }
      DispatchQueue.global().async(group: group) { log.append(2) }
      group.wait()
      return log.snapshot
    }

    /// The same appends as `async let` child tasks.
    @Sendable private static func appendsInOrderAsynchronously() async throws {
      let log = AppendLog()
      async let first: Void = log.append(1)
      async let second: Void = log.append(2)
      _ = await (first, second)
      let items = log.snapshot
      if items != [1, 2] { throw OutOfOrder(items: items) }
    }

    /// The configuration of a test's body that replays `schedule`, as `RACECHECK_SCHEDULE` sets it.
    private static func replaying(
      _ schedule: ScheduleChoices, strategy: ScheduleSettings.Strategy = .random,
      isolated: Bool = false
    ) -> Configuration {
      var settings = ScheduleSettings.exploration
      settings.strategy = strategy
      settings.replayedSchedule = schedule
      return Configuration(seed: 1, isolated: isolated, mode: .schedule(settings))
    }

    /// The search's report on the unfixed body, seed 1, in this process.
    private static func searched() -> CheckReport? {
      var report: CheckReport?
      withKnownIssue {
        report = explore(
          "appends in order, searched",
          configuration: Configuration.Exploration(schedules: 200, seed: 1, isolated: false),
          appendsInOrder)
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: appends in order, searched")
      }
      return report
    }

    /// The `RACECHECK_SCHEDULE` text of a replay command.
    private static func scheduleText(in command: String) -> String? {
      command.firstMatch(of: /RACECHECK_SCHEDULE='?([0-9*,]+)'?/).map { String($0.output.1) }
    }

    @Test func replayLineCarriesTheReportedTracesScheduleRunLength() throws {
      let report = try #require(Self.searched())
      let trace = try #require(report.failure?.trace, "\(report)")
      let command = try #require(report.replayCommand)
      let text = try #require(Self.scheduleText(in: command), "\(command)")
      #expect(try ScheduleChoices(parsing: text).choices == trace.schedule, "\(command)")
      #expect(
        command.hasPrefix(
          "RACECHECK_SEED=0x0000000000000001 RACECHECK_SCHEDULE='\(ScheduleChoices(trace.schedule))' swift test"
        ), "\(command)")
      #expect(report.description.contains("Schedule: \(text)\n"), "\(report)")
    }

    @Test func replayedFailingScheduleFailsAloneWithTheSameTraceAndReplayLine() throws {
      let searched = try #require(Self.searched())
      let trace = try #require(searched.failure?.trace, "\(searched)")
      let text = try #require(searched.replayCommand.flatMap(Self.scheduleText))
      let configuration = Self.replaying(try ScheduleChoices(parsing: text))
      var report: CheckReport?
      withKnownIssue {
        report = check(
          Exploration("appends in order, replayed", Self.appendsInOrder),
          configuration: configuration)
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: appends in order, replayed")
      }
      let replayed = try #require(report)
      let failure = try #require(replayed.failure, "\(replayed)")
      #expect(replayed.search.invocations == 1, "\(replayed)")
      #expect(failure.trace?.steps == trace.steps, "\(replayed)\n\n\(searched)")
      #expect(failure.trace?.schedule == trace.schedule)
      #expect(replayed.description.contains("the body threw OutOfOrder(items: [2, 1])"))
      #expect(replayed.replayCommand == searched.replayCommand, "\(replayed)")
    }

    @Test func anAsyncBodysFailingScheduleReplaysAloneWithTheSameTrace() async throws {
      var searched: CheckReport?
      await withKnownIssue {
        searched = await explore(
          "async appends, searched",
          configuration: Configuration.Exploration(schedules: 200, seed: 1, isolated: false),
          Self.appendsInOrderAsynchronously)
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: async appends, searched")
      }
      let trace = try #require(searched?.failure?.trace, "\(searched.map(\.description) ?? "")")
      let configuration = Self.replaying(ScheduleChoices(trace.schedule))
      var report: CheckReport?
      await withKnownIssue {
        report = await check(
          Exploration("async appends, replayed", Self.appendsInOrderAsynchronously),
          configuration: configuration)
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: async appends, replayed")
      }
      let replayed = try #require(report)
      #expect(replayed.search.invocations == 1, "\(replayed)")
      #expect(replayed.failure?.trace?.steps == trace.steps, "\(replayed)")
    }

    @Test func anIsolatedChildReplaysTheScheduleItIsGiven() throws {
      // Searched with no test to record it, so that the child, which runs this test again up
      // to the replay's call and skips every other check from a test, searches too.
      let searched = Exploration("appends in order, searched alone", Self.appendsInOrder)
        .check(
          Configuration(
            seed: 1, isolated: false, mode: .schedule(schedules: 200)))
      let trace = try #require(searched.failure?.trace, "\(searched)")
      let configuration = Self.replaying(ScheduleChoices(trace.schedule), isolated: true)
      var report: CheckReport?
      withKnownIssue {
        report = check(
          Exploration("appends in order, replayed in a child", Self.appendsInOrder),
          configuration: configuration)
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains(
          "racecheck: appends in order, replayed in a child")
      }
      let replayed = try #require(report)
      #expect(replayed.search.invocations == 1, "\(replayed)")
      #expect(replayed.failure?.trace?.steps == trace.steps, "\(replayed)\n\n\(searched)")
    }

    /// Whatever the strategy: partial-order reduction's search too ends with the one schedule replayed, which proves nothing of the others.
    @Test(arguments: [ScheduleSettings.Strategy.random, .dpor])
    func replayedScheduleThatPassesIsInconclusiveNotAPass(strategy: ScheduleSettings.Strategy)
      throws
    {
      let searched = try #require(Self.searched())
      let trace = try #require(searched.failure?.trace, "\(searched)")
      // A body that returns takes one scheduling point more than one that throws, its return,
      // which only thread 0, the body's, is left to take.
      let replayed = Exploration("appends in either order, replayed", Self.appendsInEitherOrder)
        .check(Self.replaying(ScheduleChoices(trace.schedule + [0]), strategy: strategy))
      #expect(replayed.inconclusiveReason == .replayedSchedulePassed, "\(replayed)")
      #expect(replayed.search.invocations == 1, "\(replayed)")
      #expect(
        replayed.description.contains(
          "the replayed schedule passed; only it ran, not the search: unset RACECHECK_SCHEDULE"),
        "\(replayed)")
      #expect(
        replayed.description.contains(
          "No failure was found in what ran (1 schedule of the body (one replayed schedule)), "
            + "but only the replayed schedule ran, so this is not a pass."), "\(replayed)")
    }

    @Test func fixedBodyLeavesTheFailingScheduleWhereTheThrowEndedIt() throws {
      let searched = try #require(Self.searched())
      let trace = try #require(searched.failure?.trace, "\(searched)")
      let replayed = Exploration(
        "appends in either order, replayed as it failed", Self.appendsInEitherOrder
      )
      .check(Self.replaying(ScheduleChoices(trace.schedule)))
      #expect(
        replayed.inconclusiveReason
          == .replayDiverged(
            "expected the schedule to end after \(trace.schedule.count) scheduling points, got one more on thread 0"
          ),
        "\(replayed)")
    }

    @Test func replayedScheduleTheCodeLeavesIsInconclusiveNamingWhere() {
      // Thread 3 does not exist at the first scheduling point, where only thread 0 does.
      let replayed = Exploration("appends, diverging", Self.appendsInEitherOrder)
        .check(Self.replaying(ScheduleChoices([3])))
      guard case .replayDiverged(let divergence) = replayed.inconclusiveReason else {
        Issue.record("not a divergence: \(replayed)")
        return
      }
      #expect(
        divergence.hasPrefix("expected a scheduling point of thread 3 at step 1"), "\(divergence)")
      #expect(replayed.description.contains("the code left the replayed schedule"), "\(replayed)")
    }
  }
}
