import Testing

/// Records a failure in whichever test framework is running the current test.
///
/// Swift Testing drops `Issue.record` made inside an XCTest method, and XCTest ignores
/// `XCTFail` inside a `@Test`, so the recorder asks Swift Testing first and falls back
/// to XCTest (`TestFailureRecorder+XCTest.swift`).
enum TestFailureRecorder {
  /// Records `message` as a failure, or as a warning, at the given source location; returns false when no framework took it.
  ///
  /// XCTest has no warnings: there a warning goes to standard error, where the test log shows it.
  @discardableResult
  static func record(
    _ message: String, asWarning: Bool = false, fileID: String, filePath: StaticString,
    line: UInt, column: UInt
  ) -> Bool {
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message), severity: asWarning ? .warning : .error,
        sourceLocation: SourceLocation(
          fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column)))
      return true
    }
    if asWarning { return false }
    return recordInXCTest(message, filePath: filePath, line: line)
  }
}
