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
/// The check runs in a child process (see ``Configuration/isolated``): the test binary,
/// started again to run only the calling test up to this call. A crash or a hang in the
/// code under test then fails this test with a symbolized report, and the run goes on.
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
  let callSite = "\(fileID):\(line):\(column)"
  // In a re-launched test binary, the check the parent asked for runs as the worker and
  // exits; any other check on the way is skipped.
  if let job = IsolatedWorker.currentJob() {
    if job.target == spec.name, job.callSite == callSite { IsolatedWorker.run(job, on: spec) }
    return CheckReport(
      target: spec.name, seed: 0, configuration: configuration, scenarios: 0, invocations: 0,
      seconds: 0)
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
  var report: CheckReport
  if configuration.isolated, let relaunch = TestRelaunch.current {
    var isolated = IsolatedCheck(target: Target(spec), configuration: configuration)
    isolated.arguments = relaunch.arguments
    isolated.callSite = callSite
    report = isolated.run()
  } else {
    report = spec.check(configuration)
  }
  let testName = function.split(separator: "(").first.map(String.init) ?? function
  report.replayCommand =
    "RACECHECK_SEED=\(Configuration.formatSeed(report.seed)) swift test --filter \(testName)"
  if report.specError != nil || report.failure != nil {
    fail(report.description)
  }
  return report
}
