import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// A search past its deadline gives up undecided rather than holding a time limit hostage.
  @Suite struct CheckerDeadlineTests {
    /// Forty overlapping adds of distinct powers of two, then a read no sum of them explains: 2^40 states to try.
    static func endless() -> LinearizabilityChecker<Int> {
      let adds = (0..<40).map { _ in
        LinearizabilityChecker<Int>.Interval(callTime: 0, returnTime: 100)
      }
      let read = LinearizabilityChecker<Int>.Interval(callTime: 200, returnTime: 300)
      return LinearizabilityChecker(intervals: adds + [read], initial: 0) { sum, index in
        guard index < 40 else { return sum == -1 }
        sum += 1 << index
        return true
      }
    }

    @Test func searchPastItsDeadlineIsUndecided() {
      guard case .undecided = Self.endless().check(deadline: Deadline(.now())) else {
        Issue.record("a search past its deadline decided")
        return
      }
    }

    @Test func outcomeCheckerPastItsDeadlineSaysTheInvocationTestedNothing() {
      var steps: [@Sendable (inout Int) -> Value] = (0..<40).map { bit in
        { @Sendable sum in
          sum += 1 << bit
          return .null
        }
      }
      steps.append { @Sendable sum in .int(sum) }
      var record = InvocationRecord(capacity: 41)
      for index in 0..<40 {
        record.callTimes[index] = 0
        record.returnTimes[index] = 100
      }
      record.callTimes[40] = 200
      record.returnTimes[40] = 300
      record.results[40] = .int(-1)
      let checker = OutcomeChecker(initial: 0, steps: steps, columnRanges: [0..<41])
      guard case .undecided = checker.check(record, deadline: Deadline(.now())) else {
        Issue.record("an outcome past its deadline was decided")
        return
      }
      // It tested nothing, so it says nothing of the results still to be seen.
      #expect(checker.invocations == 0)
    }
  }
}
