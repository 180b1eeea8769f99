import Foundation
import RaceCheckEngine

/// What a command runs with: the driver's targets and settings, and where its output goes.
struct CommandContext {
  let driver: CommandLineDriver
  let output: CommandOutput
  let errors: CommandOutput

  var programName: String { driver.programName }

  /// Writes a line to standard output.
  func print(_ line: String) {
    output.writeLine(line)
  }

  /// Writes a line to standard error.
  func printError(_ line: String) {
    errors.writeLine(line)
  }

  /// The target named `name`, or a usage error that lists the known ones.
  func target(named name: String) throws(UsageError) -> Target {
    if let target = driver.targets.first(where: { $0.name == name }) { return target }
    let names = driver.targets.map(\.name)
    throw .unknownTarget(name, known: names, suggestion: Suggestion.closest(to: name, among: names))
  }

  /// The workload target named `name`, or a usage error that lists the known ones.
  func workload(named name: String) throws(UsageError) -> WorkloadTarget {
    if let workload = driver.workloads.first(where: { $0.name == name }) { return workload }
    let names = driver.workloads.map(\.name)
    throw .unknownWorkload(
      name, known: names, suggestion: Suggestion.closest(to: name, among: names))
  }

  /// Checks `target`, in an isolated child unless the configuration says not to or the driver has no worker program.
  func check(
    _ target: Target, _ configuration: Configuration, interruption: Interruption?,
    progress: ProgressSink? = nil
  ) -> CheckReport {
    target.check(configuration, worker: worker, interruption: interruption, progress: progress)
  }

  /// The status line of a long command, or nil when standard error is no terminal or `--json` or `--quiet` was given.
  func statusLine(for parsed: ParsedArguments) -> StatusLine? {
    guard let show = errors.showStatus, !parsed.flag("--json"), !parsed.flag("--quiet") else {
      return nil
    }
    return StatusLine(show: show)
  }

  /// How to start a worker child, or nil when the driver checks in its own process.
  var worker: WorkerCommand? {
    driver.workerExecutable.map { WorkerCommand(executable: $0) }
  }

  /// Writes a report file that an option asked for, saying on standard error why when it cannot; true when it was written.
  func writeReportFile(_ contents: String, to path: String, what: String) -> Bool {
    do {
      try contents.write(toFile: path, atomically: true, encoding: .utf8)
      return true
    } catch {
      printError("\(programName): \(path): cannot write the \(what): \(Self.reason(error))")
      return false
    }
  }

  /// The system's reason, such as `no such file or directory`, rather than Foundation's wrapper of it.
  private static func reason(_ error: any Error) -> String {
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error
    let text: String
    if let posix = underlying.map({ $0 as NSError }), posix.domain == NSPOSIXErrorDomain {
      text = String(cString: strerror(Int32(posix.code)))
    } else {
      text = error.localizedDescription
    }
    return text.prefix(1).lowercased() + text.dropFirst()
  }

  /// Prints `value` as one line of JSON, or reports an internal error if it cannot be encoded.
  func printJSON(_ value: some Encodable, status: ExitStatus) -> ExitStatus {
    do {
      print(try JSONOutput.encode(value))
      return status
    } catch {
      printError("\(programName): internal error: cannot encode the JSON output: \(error)")
      return .internalError
    }
  }
}
