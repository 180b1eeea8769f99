import XCTest

/// An XCTest case that keeps racecheck's failures instead of failing, so that its tests can assert on them.
///
/// Its own assertions, and any other failure, still fail it. XCTest then never reports
/// racecheck's failure to its observers, so racecheck also prints the report to standard
/// error. In an isolated child, an explored body's assertion failures reach XCTest, where
/// racecheck hears them.
class RaceCheckFailureCapturingCase: XCTestCase {
  /// racecheck's failures, with the line each was recorded at.
  private(set) var recorded: [(description: String, line: Int)] = []

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
}
