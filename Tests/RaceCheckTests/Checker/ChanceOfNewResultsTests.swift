import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// A pass says how settled its scenarios were: the Good–Turing estimate of results not yet seen.
  @Suite struct ChanceOfNewResultsTests {
    /// Two overlapping reads of a register holding 0, returning `first` and `second`.
    static func record(_ first: Int, _ second: Int) -> InvocationRecord {
      var record = InvocationRecord(capacity: 2)
      record.callTimes = [0, 0]
      record.returnTimes = [10, 10]
      record.results = [.int(first), .int(second)]
      return record
    }

    static func checker() -> OutcomeChecker<Int> {
      let read: @Sendable (inout Int) -> Value = { state in .int(state) }
      return OutcomeChecker(initial: 0, steps: [read, read], columnRanges: [0..<1, 1..<2])
    }

    @Test func theEstimateIsTheShareOfInvocationsWhoseResultsNoOtherReturned() {
      let checker = Self.checker()
      #expect(checker.chanceOfNewResults == 1)
      for _ in 0..<6 { _ = checker.check(Self.record(0, 0)) }
      #expect(checker.chanceOfNewResults == 0)
      // Results that fail count as results too: one seen once, then one seen twice.
      _ = checker.check(Self.record(1, 0))
      _ = checker.check(Self.record(0, 2))
      _ = checker.check(Self.record(0, 2))
      #expect(checker.invocations == 9)
      #expect(checker.resultsSeenOnce == 1)
      #expect(checker.chanceOfNewResults == 1.0 / 9)
    }

    @Test func theSearchSummaryKeepsTheMeanAndTheLargest() {
      var chance = ChanceOfNewResults()
      for share in [0.01, 0.03, 0.02] { chance.add(share) }
      #expect(chance.scenarios == 3)
      #expect(abs(chance.mean - 0.02) < 1e-12)
      #expect(chance.largest == 0.03)
    }

    @Test func aPassStatesTheEstimate() {
      var configuration = smallConfiguration()
      configuration.scenarios = 3
      configuration.isolated = false
      let report = OneLockCounter.spec.check(configuration)
      guard case .passed = report.outcome else {
        Issue.record("a locked counter did not pass: \(report.outcome)")
        return
      }
      #expect(report.search.chanceOfNewResults.scenarios == 3)
      #expect(report.search.chanceOfNewResults.largest < 1)
      #expect(report.searchDescription.contains("(Good–Turing) is "))
    }

    @Test func percentagesKeepTwoSignificantDigits() {
      #expect(CheckReport.percent(0.5) == "50%")
      #expect(CheckReport.percent(0.026) == "2.6%")
      #expect(CheckReport.percent(0.0035) == "0.35%")
    }
  }
}
