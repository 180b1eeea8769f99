import Foundation
import RaceCheckTestSupport
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// A failure's report says how long the search took to find it apart from how long shrinking took.
  @Suite struct FailureTimingTests {
    @Test func theSeedLineGivesTheTimeToFindTheShrinkingTimeAndTheWhole() {
      let report = TimedFailure.report(
        timeToFind: .milliseconds(212), timeToShrink: .milliseconds(86), elapsed: .milliseconds(410)
      )
      #expect(
        report.description.contains(
          "Seed: 0x0000000000000001; found in scenario 4 after 3001 invocations in 212 ms; "
            + "shrinking took 86 ms; 410 ms in all."))
      #expect(!report.description.contains("with shrinking"))
    }

    @Test func theDocumentsSampleSeedLineIsTheOneTheReportPrints() throws {
      var report = TimedFailure.report(
        timeToFind: .milliseconds(96), timeToShrink: .milliseconds(187), elapsed: .milliseconds(298)
      )
      report.seed = 0x319F_343A_9681_D9C3
      let seedLine = try #require(
        report.description.split(separator: "\n").first { $0.hasPrefix("Seed:") })
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      // The README's sample report, and the same report explained in "Reading a report".
      for document in ["README.md", "Sources/RaceCheck/RaceCheck.docc/ReadingAReport.md"] {
        let text = try String(
          contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        #expect(text.split(separator: "\n").contains(seedLine), "\(document): \(seedLine)")
      }
    }

    @Test func aFailureThatWasNotShrunkSaysSo() {
      let report = TimedFailure.report(
        timeToFind: .milliseconds(1500), timeToShrink: nil, elapsed: .milliseconds(1750))
      #expect(
        report.description.contains(
          "found in scenario 4 after 3001 invocations in 1.5 s; not shrunk; 1.75 s in all."))
    }

    @Test func theHTMLPageGivesTheTimeToFindAndTheShrinkingTimeApart() {
      let report = TimedFailure.report(
        timeToFind: .milliseconds(212), timeToShrink: .milliseconds(86), elapsed: .milliseconds(410)
      )
      let html = HTMLReport.page(of: report, window: nil)
      #expect(html.contains("in scenario 4 after 3001 invocations, 212 ms"))
      #expect(html.contains("1 operations shrunk to 1 in 0 steps, 86 ms"))
    }

    @Test func runJSONCarriesBothTimesBesideTheWhole() throws {
      let report = TimedFailure.report(
        timeToFind: .milliseconds(250), timeToShrink: .milliseconds(500),
        elapsed: .milliseconds(1000))
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(JSONOutput.encode(RunJSON(report)).utf8))
          as? [String: Any])
      #expect(document["secondsToFind"] as? Double == 0.25)
      #expect(document["secondsShrinking"] as? Double == 0.5)
      #expect(document["seconds"] as? Double == 1)
    }

    @Test func aPassWritesNullForBothTimes() throws {
      let report = CheckReport(target: "Counter", seed: 1, configuration: Configuration())
      let json = try JSONOutput.encode(RunJSON(report))
      #expect(json.contains(#""secondsShrinking":null"#))
      #expect(json.contains(#""secondsToFind":null"#))
    }

    @Test func aCheckMeasuresShrinkingWithinItsWholeTimeAndAfterTheSearch() throws {
      var configuration = smallConfiguration()
      configuration.isolated = false
      let report = GuardedInsertArray.spec.check(configuration)
      let failure = try #require(report.failure)
      let shrinking = try #require(failure.timeToShrink)
      #expect(failure.shrinkSteps > 0)
      #expect(shrinking > .zero)
      #expect(failure.timeToFind + shrinking <= report.elapsed)
      #expect(report.description.contains("shrinking took"))
    }

    @Test func aCheckThatDoesNotShrinkRecordsNoShrinkingTime() throws {
      var configuration = smallConfiguration()
      configuration.isolated = false
      configuration.minimizes = false
      let report = GuardedInsertArray.spec.check(configuration)
      let failure = try #require(report.failure)
      #expect(failure.timeToShrink == nil)
      #expect(report.description.contains("; not shrunk;"))
    }
  }
}

/// A hand-made failure report whose times the tests choose.
private enum TimedFailure {
  static func report(timeToFind: Duration, timeToShrink: Duration?, elapsed: Duration)
    -> CheckReport
  {
    let history = History(operations: [.made(0, "count", [], 0, 10, result: 1)])
    let explanation = Explanation(
      longestPrefix: [], state: "[]", candidates: [.init(operation: 0, returned: 1, expected: 0)])
    let scenario = Scenario(
      initial: history.operations.map { Scenario.Call($0.name, $0.arguments) })
    var failure = FailureReport(
      evidence: .nonLinearizable(history, explanation),
      diagnosis: Diagnosis(.unclassified, evidence: "no bug pattern fits"),
      timeToFind: timeToFind, original: scenario, scenarioIndex: 3, scenario: scenario,
      shrinkSteps: 0, shrinkingCutShort: false, failedInvocations: 5, invocations: 5,
      repro: .notWritten("not asked for"))
    failure.timeToShrink = timeToShrink
    var report = CheckReport(
      target: "Counter", seed: 1, configuration: Configuration(), outcome: .failed(failure))
    report.search.invocations = 3001
    report.elapsed = elapsed
    return report
  }
}
