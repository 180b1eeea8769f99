#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks `spec` from a test: a failure fails the calling test at this line with the full report.
///
/// Works from a Swift Testing `@Test` and from an XCTest method. A pass prints one line
/// to standard output saying what it explored and how settled it was. Set
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
  func record(_ message: String, asWarning: Bool = false) {
    if !TestFailureRecorder.record(
      message, asWarning: asWarning, fileID: fileID, filePath: filePath, line: line,
      column: column)
    {
      Console.printError(message)
    }
  }
  let callSite = "\(fileID):\(line):\(column)"
  // In a re-launched test binary, the check the parent asked for serves as the worker and
  // exits; any other check on the way is skipped.
  if let job = IsolatedWorker.currentJob() {
    if job.target == spec.name, job.callSite == callSite { IsolatedWorker.run(job, on: spec) }
    return CheckReport(target: spec.name, seed: 0, configuration: configuration)
  }
  var configuration = configuration
  do throws(TestReplay.Error) {
    try TestReplay.apply(to: &configuration)
  } catch {
    let report = CheckReport(
      target: spec.name, seed: 0, configuration: configuration,
      outcome: .specError(SpecError(message: error.description)))
    record(report.description)
    return report
  }
  // The repro file records the calling test and the command that runs it alone, as it was built.
  let selection = TestReplay.Selection.current(function: function)
  let testCommand = TestReplay.testCommand(selecting: selection)
  configuration.origin = .test(id: selection.testID, command: testCommand)
  var worker: WorkerCommand?
  if configuration.isolated, let relaunch = TestRelaunch.current {
    worker = WorkerCommand(
      executable: WorkerCommand.currentExecutable, arguments: relaunch.arguments,
      callSite: callSite)
  }
  var report = spec.check(configuration, worker: worker, interruption: nil)
  report.replayCommand = TestReplay.command(
    seed: report.seed, scenario: report.failure?.scenarioIndex, testCommand: testCommand)
  switch report.outcome {
  case .passed:
    // How strong the pass was, beside the test's own line.
    Console.print(report.description)
  case .failed, .specError, .killedFromOutside:
    record(report.description)
  case .inconclusive:
    record(report.description, asWarning: !configuration.requiresConclusiveVerdict)
  }
  return report
}
