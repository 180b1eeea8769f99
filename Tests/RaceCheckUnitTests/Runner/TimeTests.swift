import Foundation
import Testing

@testable import RaceCheckEngine
@testable import RaceCheckHistory

extension UnitTestSuite {
  /// The clock's instants, deadlines and the conversions at the boundaries that need numbers.
  @Suite struct TimeTests {
    @Test func anInstantPlusADurationIsThatDurationLater() {
      let start = MonotonicInstant(nanoseconds: 1_000)
      #expect((start + .microseconds(2)) - start == .microseconds(2))
      #expect(start + .microseconds(2) > start)
    }

    @Test func anInstantPastTheClocksRangeStaysAtItsEnd() {
      let start = MonotonicInstant(nanoseconds: .max - 1)
      #expect(start + .seconds(1) == MonotonicInstant(nanoseconds: .max))
    }

    @Test func theClockNeverRunsBackwards() {
      let first = MonotonicInstant.now()
      #expect(MonotonicInstant.now() >= first)
    }

    @Test func theDistantFutureNeverPassesAndComesAfterEveryDeadline() {
      #expect(!Deadline.distantFuture.hasPassed)
      #expect(Deadline.distantFuture.timeLeft == nil)
      #expect(Deadline.after(nil) == .distantFuture)
      #expect(Deadline.after(.seconds(1)) < .distantFuture)
      #expect(min(Deadline.distantFuture, Deadline(.now())) != .distantFuture)
    }

    @Test func aDeadlineInThePastHasPassedWithNoTimeLeft() {
      let deadline = Deadline.after(.seconds(1), from: .now() + .seconds(-10))
      #expect(deadline.hasPassed)
      #expect(deadline.timeLeft == .zero)
    }

    @Test func aDeadlineAheadHasTimeLeftUpToItsDuration() throws {
      let deadline = Deadline.after(.seconds(60))
      #expect(!deadline.hasPassed)
      let left = try #require(deadline.timeLeft)
      #expect(left > .seconds(50) && left <= .seconds(60))
    }

    @Test func durationsConvertToTheNumbersReportsAndSystemCallsTake() {
      #expect(Duration.milliseconds(250).seconds == 0.25)
      #expect(Duration.milliseconds(250).milliseconds == 250)
      #expect(Duration.seconds(2).nanoseconds == 2_000_000_000)
      #expect(Duration.seconds(Int64.max).nanoseconds == .max)
      #expect(Duration.microseconds(1_001).wholeMillisecondsRoundedUp == 2)
      #expect(Duration.seconds(-1).wholeMillisecondsRoundedUp == 0)
      #expect(Duration(secondsOrZero: 0.5) == .milliseconds(500))
      #expect(Duration(secondsOrZero: .nan) == .zero)
      #expect(Duration(secondsOrZero: .infinity) == .zero)
      #expect(Duration(secondsRoundedUpToMilliseconds: 0.0001) == .milliseconds(1))
      #expect(Duration.seconds(2).rate(of: 10) == 5)
      #expect(Duration.zero.rate(of: 10) == 0)
    }

    @Test func aRequestKeepsItsWireEncodingOfTimes() throws {
      var request = RunRequest(
        scenario: Scenario(), seed: 7, invocations: 3, untilFirstFailure: true,
        deadline: Deadline(MonotonicInstant(nanoseconds: 123_456_789)))
      request.hangTimeout = .milliseconds(1500)
      let data = try JSONEncoder().encode(request)
      let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      #expect(object["deadline"] as? Int64 == 123_456_789)
      #expect(object["hangTimeout"] as? Double == 1.5)
      #expect(try JSONDecoder().decode(RunRequest.self, from: data) == request)
    }

    @Test func aRequestWithoutADeadlineOrHangTimeoutLeavesTheKeysOut() throws {
      let request = RunRequest(
        scenario: Scenario(), seed: 7, invocations: 3, untilFirstFailure: false)
      let data = try JSONEncoder().encode(request)
      let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      #expect(object["deadline"] == nil && object["hangTimeout"] == nil)
      let decoded = try JSONDecoder().decode(RunRequest.self, from: data)
      #expect(decoded.deadline == .distantFuture && decoded.hangTimeout == nil)
    }
  }
}
