import Dispatch
import Foundation
import RaceCheck
import XCTest

/// Checks that `explore` hears an `XCTAssert…` that fails inside the explored body, in an XCTest method.
final class XCTestExploreTests: RaceCheckFailureCapturingCase {
  func testAnAssertionOnlySomeSchedulesBreakFailsTheExplorationAtItsLine() {
    let line = #line + 1
    let report = explore("XCTest appends", schedules: 200, seed: 1) {
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
}
