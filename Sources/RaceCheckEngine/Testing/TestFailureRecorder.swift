import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Records a failure in whichever test framework is running the current test.
///
/// Swift Testing drops `Issue.record` made inside an XCTest method, and XCTest ignores
/// `XCTFail` inside a `@Test`, so the recorder asks Swift Testing first and falls back
/// to XCTest's `XCTFail`, found at run time so that the library need not link XCTest.
enum TestFailureRecorder {
  /// The framework that will receive a failure recorded now.
  enum Framework {
    case swiftTesting, xcTest, none
  }

  static var current: Framework {
    if Test.current != nil { return .swiftTesting }
    return xcTestFail == nil ? .none : .xcTest
  }

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
    guard let xcTestFail else { return false }
    xcTestFail(message, filePath, line)
    return true
  }

  private typealias XCTFailFunction = @convention(thin) (String, StaticString, UInt) -> Void

  /// `XCTest.XCTFail(_:file:line:)`, when XCTest is loaded in this process.
  private static var xcTestFail: XCTFailFunction? {
    guard let process = dlopen(nil, RTLD_NOW),
      let symbol = dlsym(process, "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF")
    else { return nil }
    return unsafeBitCast(symbol, to: XCTFailFunction.self)
  }
}
