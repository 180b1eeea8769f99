#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks `spec` from a test: a failure fails the calling test at this line with the full report.
///
/// Works from a Swift Testing `@Test` and from an XCTest method. A pass is quiet. Set
/// `RACECHECK_SEED` to replay a run; the report prints the exact command.
///
/// ```swift
/// @Test func lockArrayIsLinearizable() {
///   check(Spec("LockArray", make: LockArray.init, model: ArrayModel()) {
///     Operation("append", .int(in: 0...3)) { (array: LockArray, x: Int) in array.addObject(x) }
///     Operation("count") { (array: LockArray) in array.count }
///   })
/// }
/// ```
///
/// - Returns: The report, for tests that want to look at it.
@discardableResult
public func check<Subject, Model>(
  _ spec: Spec<Subject, Model>,
  configuration: Configuration = Configuration(),
  function: String = #function,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> CheckReport {
  func fail(_ message: String) {
    if !TestFailureRecorder.record(
      message, fileID: fileID, filePath: filePath, line: line, column: column)
    {
      Console.printError(message)
    }
  }
  var configuration = configuration
  if let text = getenv("RACECHECK_SEED").map({ String(cString: $0) }) {
    guard let seed = Configuration.parseSeed(text) else {
      var report = CheckReport(
        target: spec.name, seed: 0, configuration: configuration, scenarios: 0, invocations: 0,
        seconds: 0)
      report.specError = SpecError(
        message: "RACECHECK_SEED='\(text)' is not a seed: use decimal or 0x… hexadecimal")
      fail(report.description)
      return report
    }
    configuration.seed = seed
  }
  var report = spec.check(configuration)
  let testName = function.split(separator: "(").first.map(String.init) ?? function
  report.replayCommand =
    "RACECHECK_SEED=\(Configuration.formatSeed(report.seed)) swift test --filter \(testName)"
  if report.specError != nil || report.failure != nil {
    fail(report.description)
  }
  return report
}
