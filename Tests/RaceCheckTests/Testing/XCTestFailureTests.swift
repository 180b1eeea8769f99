import RaceCheck
import XCTest

/// Checks that a failure inside an XCTest method reaches XCTest, at the line of the call.
final class XCTestFailureTests: XCTestCase {
  private var recorded: [(description: String, line: Int)] = []

  // Captures racecheck's failures instead of failing, so the test can assert on them;
  // the test's own assertions still fail it.
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

  func testFailingCheckFailsTheXCTestAtTheCallLine() {
    let line = #line + 1
    let report = check(GuardedInsertArray.spec, configuration: smallConfiguration())
    XCTAssertEqual(report.verdict, .fail)
    XCTAssertEqual(recorded.count, 1)
    XCTAssertEqual(recorded.first?.line, line)
    XCTAssertTrue(recorded.first?.description.contains("insert-at-count-rejected") == true)
  }

  func testCrashingCheckFailsTheXCTestWithTheSymbolizedReportAndTheTestGoesOn() {
    let report = check(CrashingArraySpec.spec, configuration: smallConfiguration())
    // Reaching this line is the point: the crash ended the re-launched child, not this process.
    XCTAssertEqual(report.failure?.kind, .crash)
    XCTAssertEqual(recorded.count, 1)
    XCTAssertTrue(
      recorded.first.map { CrashingArraySpec.isSymbolizedReport($0.description) } == true,
      recorded.first?.description ?? "no failure recorded")
  }

  func testReplayCommandSelectsThisMethodAlone() {
    let report = check(GuardedInsertArray.spec, configuration: smallConfiguration())
    let command = report.replayCommand ?? ""
    XCTAssertTrue(command.hasPrefix("RACECHECK_SEED=0x"), command)
    XCTAssertTrue(
      command.hasSuffix(
        #" --filter '^RaceCheckTests\.XCTestFailureTests/testReplayCommandSelectsThisMethodAlone$'"#
      ),
      command)
    XCTAssertEqual(recorded.count, 1)
  }

  func testPassingCheckRecordsNoFailure() {
    check(OneLockCounter.spec, configuration: smallConfiguration())
    XCTAssertTrue(recorded.isEmpty)
  }
}
