import Dispatch
import Foundation
import RaceCheck
import XCTest

/// Checks that `explore` hears an `XCTAssert…` that fails inside the explored body, in an XCTest method.
final class XCTestExploreTests: XCTestCase {
  private var recorded: [(description: String, line: Int)] = []

  // Captures racecheck's failures instead of failing, so that the test can assert on them. In
  // the isolated child, the body's own assertion failures reach XCTest, where racecheck hears them.
  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    if description.contains("racecheck:") {
      recorded.append((description, lineNumber))
    } else {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

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
