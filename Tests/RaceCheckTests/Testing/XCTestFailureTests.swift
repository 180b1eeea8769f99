import Foundation
import RaceCheck
import RaceCheckTestSupport
import XCTest

/// Checks that a failure inside an XCTest method reaches XCTest, at the line of the call.
final class XCTestFailureTests: RaceCheckFailureCapturingCase {
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

/// Checks what XCTest itself prints for a failing check, in a child test process as `swift test` runs one.
///
/// A class of its own: `XCTestFailureTests` captures every failure that mentions racecheck,
/// and these assertions quote racecheck's report.
final class XCTestPrintedFailureTests: XCTestCase {
  /// The environment variable that makes the child's test run instead of skipping.
  static let childVariable = "RACECHECK_TESTS_XCTEST_FAILURE_CHILD"

  func testXCTestReportsAFailingCheckAtItsLineWithTheReport() throws {
    let child = try Self.runChild()
    let lines = child.output.split(separator: "\n", omittingEmptySubsequences: false)
    // XCTest's own line for a failure: "path:line: error: Class.method : description".
    let location = "\(#filePath):"
    let failure = try XCTUnwrap(
      lines.first { $0.hasPrefix(location) && $0.contains(": error: ") }, child.output)
    let line = try XCTUnwrap(Int(failure.dropFirst(location.count).prefix { $0.isNumber }))
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertTrue(source[line - 1].contains("check(GuardedInsertArray.spec"), String(failure))
    XCTAssertTrue(
      failure.contains(
        ": error: XCTestPrintedFailureTests.testFailingCheckWhenRunAsTheChild : failed - racecheck: "
      ),
      String(failure))
    XCTAssertTrue(child.output.contains("insert-at-count-rejected"), child.output)
    XCTAssertTrue(child.output.contains("' failed ("), child.output)
    XCTAssertNotEqual(child.status, 0)
    // XCTest took the failure, so racecheck did not print it on standard error as well.
    XCTAssertFalse(child.errors.contains("insert-at-count-rejected"), child.errors)
  }

  func testFailingCheckWhenRunAsTheChild() throws {
    try XCTSkipUnless(
      ProcessInfo.processInfo.environment[Self.childVariable] != nil,
      "runs as the child of the test above only")
    check(GuardedInsertArray.spec, configuration: smallConfiguration())
  }

  /// What the child printed, and its exit status.
  private struct Result {
    var status: Int32
    var output: String
    var errors: String
  }

  /// Runs this test binary with the child's failing test alone, and waits for it.
  private static func runChild() throws -> Result {
    let process = Process()
    process.executableURL = URL(
      fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    process.arguments = [
      "RaceCheckTests.XCTestPrintedFailureTests/testFailingCheckWhenRunAsTheChild"
    ]
    process.environment = ProcessInfo.processInfo.environment.merging([childVariable: "1"]) {
      $1
    }
    let output = Pipe()
    // Standard error goes to a file, so that neither stream can fill its pipe while the other is read.
    let errorFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("racecheck-xctest-child-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
      errors: String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self))
  }
}
