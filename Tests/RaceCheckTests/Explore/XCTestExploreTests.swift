import Dispatch
import Foundation
import RaceCheck
import RaceCheckEngine
import XCTest

/// The order two appends came in was not the one expected.
private struct AppendedOutOfOrder: Error {}

/// Checks that `explore` hears an `XCTAssert…` that fails inside the explored body, in an XCTest method.
final class XCTestExploreTests: RaceCheckFailureCapturingCase {
  func testAnAssertionOnlySomeSchedulesBreakFailsTheExplorationAtItsLine() {
    let line = #line + 1
    let report = explore(
      "XCTest appends", configuration: Configuration.Exploration(schedules: 200, seed: 1)
    ) {
      let items = AppendLog()
      let group = DispatchGroup()
      for item in 1...2 {
        DispatchQueue.global().async(group: group) { items.append(item) }
      }
      group.wait()
      XCTAssertEqual(items.snapshot, [1, 2])
    }
    XCTAssertEqual(report.failure?.kind, .failedExpectation, report.description)
    XCTAssertEqual(recorded.count, 1)
    XCTAssertEqual(recorded.first?.line, line)
    XCTAssertTrue(
      report.description.contains(#"XCTAssertEqual failed: ("[2, 1]") is not equal to ("[1, 2]")"#),
      report.description)
  }

  func testAReplayedScheduleFailsAloneAtItsLineInAChild() throws {
    // Thrown rather than asserted, so that the search in this process records nothing: it
    // runs with no test to record it, so that the child, which runs this test again up to
    // the replay and skips every other check from a test, searches too.
    let body: @Sendable () throws -> Void = {
      let items = AppendLog()
      let group = DispatchGroup()
      for item in 1...2 {
        DispatchQueue.global().async(group: group) { items.append(item) }
      }
      group.wait()
      if items.snapshot != [1, 2] { throw AppendedOutOfOrder() }
    }
    let searched = Exploration("XCTest appends, searched", body).check(
      Configuration(seed: 1, isolated: false, mode: .schedule(schedules: 200))
    )
    let trace = try XCTUnwrap(searched.failure?.trace, searched.description)
    var settings = ScheduleSettings.exploration
    settings.replayedSchedule = ScheduleChoices(trace.schedule)
    let line = #line + 1
    let replayed = check(
      Exploration("XCTest appends, replayed", body),
      configuration: Configuration(seed: 1, mode: .schedule(settings)))
    XCTAssertEqual(replayed.search.invocations, 1, replayed.description)
    XCTAssertEqual(replayed.failure?.trace?.steps, trace.steps, replayed.description)
    XCTAssertEqual(recorded.count, 1)
    XCTAssertEqual(recorded.first?.line, line)
  }
}
