import Foundation

/// One call of ``check(_:configuration:function:fileID:filePath:line:column:)`` from a test: what it does on the test's own task, before and after the check runs.
///
/// The test's task is where a failure can be recorded and where the running test is
/// known, so preparing and finishing happen there; the check itself may run elsewhere.
struct TestCheck {
  let function: String
  let fileID: String
  let filePath: StaticString
  let line: UInt
  let column: UInt

  /// What a check from a test does once prepared.
  enum Step {
    /// Nothing to run: the report is final.
    case finished(CheckReport)
    /// Run this.
    case ready(Run)
  }

  /// The work of one check: serving as the worker a parent test process asked for, or checking.
  struct Run: Sendable {
    enum Work: Sendable {
      /// In a re-launched test binary, this check serves as the worker and ends the process.
      case serve(WorkerJob)
      /// Checks the checkable, in a child running the calling test alone when there is a worker command.
      case check(Configuration, worker: WorkerCommand?, testCommand: String)
    }

    let work: Work

    /// Runs the work; a worker never returns.
    func perform(_ checkable: some Checkable) -> CheckReport {
      switch work {
      case .serve(let job):
        IsolatedWorker.run(job, on: checkable)
      case .check(let configuration, let worker, let testCommand):
        var report = checkable.check(
          configuration, worker: worker, interruption: nil, progress: nil)
        // A body to explore is its one scenario: the seed replays it, and its failing
        // schedule, shrunk, runs alone without the search that found it.
        let scenario = report.configuration.exploresABody ? nil : report.failure?.scenarioIndex
        report.replayCommand = TestReplay.command(
          seed: report.seed, scenario: scenario, schedule: report.failingSchedule,
          testCommand: testCommand)
        return report
      }
    }
  }

  private var callSite: String { "\(fileID):\(line):\(column)" }

  /// Works out what the check does, on the calling test's task.
  func prepare(_ checkable: some Checkable, _ configuration: Configuration) -> Step {
    // In a re-launched test binary, the check the parent asked for serves as the worker and
    // exits; any other check on the way is skipped.
    if let job = IsolatedWorker.currentJob() {
      guard job.target == checkable.name, job.callSite == callSite else {
        return .finished(
          CheckReport(target: checkable.name, seed: 0, configuration: configuration))
      }
      return .ready(Run(work: .serve(job)))
    }
    var configuration = configuration
    do throws(TestReplay.Error) {
      try TestReplay.apply(to: &configuration, exploresABody: checkable.spec.isExploration)
    } catch {
      let report = CheckReport(
        target: checkable.name, seed: 0, configuration: configuration,
        outcome: .specError(SpecError(message: error.description)))
      record(report.description)
      return .finished(report)
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
    return .ready(Run(work: .check(configuration, worker: worker, testCommand: testCommand)))
  }

  /// Records the report's verdict on the calling test's task, and returns the report.
  func finish(_ report: CheckReport, of run: Run) -> CheckReport {
    guard case .check(let configuration, _, _) = run.work else { return report }
    switch report.outcome {
    case .passed:
      // How strong the pass was, beside the test's own line.
      Console.print(report.description)
    case .failed, .specError, .killedFromOutside, .internalFault:
      record(report.description)
    case .inconclusive:
      record(report.description, asWarning: !configuration.requiresConclusiveVerdict)
    }
    return report
  }

  private func record(_ message: String, asWarning: Bool = false) {
    if !TestFailureRecorder.record(
      message, asWarning: asWarning, fileID: fileID, filePath: filePath, line: line,
      column: column)
    {
      Console.printError(message)
    }
  }

  /// Runs `body` on a new thread, and resumes when it returns.
  static func onThreadOfItsOwn<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async
    -> Result
  {
    await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: body()) }
      thread.name = "racecheck-check"
      thread.stackSize = 8 << 20
      thread.start()
    }
  }
}
