import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  struct TestFailureRecorderTests {
    @Test func failureOutsideAnyTestIsNotTaken() async {
      // A thread of its own runs no test: neither Swift Testing's nor XCTest's.
      let taken = await TestCheck.onThreadOfItsOwn {
        TestFailureRecorder.record(
          "racecheck: a failure outside any test", fileID: #fileID, filePath: #filePath,
          line: #line, column: #column)
      }
      #expect(!taken)
    }

    @Test func warningOutsideAnyTestIsNotTaken() async {
      let taken = await TestCheck.onThreadOfItsOwn {
        TestFailureRecorder.record(
          "racecheck: a warning outside any test", asWarning: true, fileID: #fileID,
          filePath: #filePath, line: #line, column: #column)
      }
      #expect(!taken)
    }
  }
}
