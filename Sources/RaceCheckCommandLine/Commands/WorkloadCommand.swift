import Foundation
import RaceCheckEngine
import Synchronization

/// `racecheck workload <name>`: many clients against a running system for a while, faults injected, the one history checked.
enum WorkloadCommand {
  static let spec = CommandSpec(
    name: "workload",
    abstract:
      "Run a workload: clients call a running system while faults are injected, then check the history.",
    arguments: [
      ArgumentSpec(name: "workload", help: "The workload to run, as 'list' names it.")
    ],
    options: [
      .value("--clients", "N", "Clients calling at once (default: the workload's)."),
      .value(
        "--time", "SECONDS",
        "Stop the clients after this long: 30, 30s, 500ms, 2m (default: the workload's)."),
      .value("--operations", "N", "Stop the clients after N calls in all, instead of a time."),
      .value(
        "--timeout", "SECONDS",
        "Record a call still running after this long as unknown, and go on without it (default: the workload's)."
      ),
      .value(
        "--seed", "S", "Seed of the clients' choices and the faults' (default: the workload's)."),
      .flag("--no-faults", "Inject no faults: run the workload without its nemesis."),
      .value(
        "--history", "FILE",
        "Write the history (calls and faults) to FILE before it is checked; 'check' reads it."),
      HTMLOption.spec(
        shows: "each client a lane, the faults as bands across them, and the violation's marks"),
      .flag("--json", "Print one JSON document instead of the text."),
      .value("--junit", "FILE", "Write the verdict to FILE as JUnit XML, for CI."),
      .quiet,
    ],
    discussion: [
      "Each client makes one call at a time. A call that throws, or runs past --timeout, is",
      "recorded as unknown: it may have taken effect at any point after its call, or never, so",
      "a slow or failing service is never reported as wrong by itself; its client goes on as a",
      "new process. The history is checked with the workload's model, a key at a time for kv.",
      "Exits 0 when the history is linearizable, 1 when it is not, 75 when the check could not",
      "decide, 69 when what the workload runs against could not be started, 78 when the",
      "workload's spec or settings cannot make a workload, 73 when it passed but a report file",
      "could not be written, and 130 or 143 after SIGINT or SIGTERM: the first stops the",
      "clients and the history so far is written and checked, a second stops the check.",
    ],
    execute: { parsed, context throws(UsageError) in try run(parsed, context) })

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let target = try context.workload(named: parsed.positionals[0])
    var request = WorkloadTarget.Request()
    request.name = target.name
    request.clients = try parsed.integer("--clients", atLeast: 1)
    if parsed.value("--time") != nil, parsed.value("--operations") != nil {
      throw .conflictingOptions("--time", "--operations", command: spec.name)
    }
    if let time = try parsed.duration("--time") { request.limit = .duration(time) }
    if let count = try parsed.integer("--operations", atLeast: 1) {
      request.limit = .operations(count)
    }
    request.operationTimeout = try parsed.duration("--timeout")
    request.seed = try parsed.seed("--seed")
    request.injectsFaults = !parsed.flag("--no-faults")
    let interruption = Interruption.watch()
    defer { interruption.stop() }
    request.interruption = interruption
    let statusLine = context.statusLine(for: parsed)
    defer { statusLine?.clear() }
    if let statusLine {
      request.progress = { progress in
        statusLine.update(
          "\(target.name): \(PlainNumber.text((progress.elapsed.seconds * 10).rounded() / 10)) s, "
            + "\(progress.operations) calls (\(progress.unknown) unknown), \(progress.faults) faults"
        )
      }
    }
    let historyPath = parsed.value("--history")
    let historyWritten = HistoryWriting()
    request.recorded = { history in
      statusLine?.update("\(target.name): checking \(history.operations.count) calls")
      if let historyPath {
        historyWritten.set(
          context.writeReportFile(
            HistoryFile.encode(history), to: historyPath, what: "history file"))
      }
    }
    let report: WorkloadReport
    do {
      report = try target.run(request)
    } catch let error as WorkloadError {
      statusLine?.clear()
      context.printError("\(context.programName): \(error)")
      return .specError
    } catch {
      statusLine?.clear()
      context.printError(
        "\(context.programName): workload '\(target.name)' could not start: \(error)")
      return .unavailable
    }
    statusLine?.clear()
    let output = HistoryVerdictOutput(
      name: report.historyName, history: report.history, verdict: report.verdict,
      text: report.lines, junitClass: "racecheck.workload")
    var status = output.status
    // A run cut short proves no pass, and an undecided check is the signal's doing; a
    // violation in what was recorded is a violation all the same.
    if report.verdict.verdict != .notLinearizable, let signal = report.stoppedBy {
      status = .interrupted(by: signal)
    }
    if historyWritten.value == false { status = status.afterWritingReportFile(succeeded: false) }
    return output.emit(parsed, context, status: status) {
      WorkloadJSON(report, historyFile: historyWritten.value == true ? historyPath : nil)
    }
  }

  /// Whether the `--history` file was written, set from the workload's thread before the check.
  private final class HistoryWriting: Sendable {
    private let written = Mutex<Bool?>(nil)

    func set(_ value: Bool) { written.withLock { $0 = value } }
    var value: Bool? { written.withLock { $0 } }
  }
}

/// `racecheck workload --json`: what ran, the faults, and the check's document.
struct WorkloadJSON: Encodable {
  struct Fault: Encodable {
    var fault: String
    var target: String
    var start: JSONNumber
    var end: OrNull<JSONNumber>
  }

  var workload: String
  var clients: Int
  var seconds: JSONNumber
  var calls: Int
  var unknown: Int
  var failed: Int
  var faults: [Fault]
  var stoppedBy: OrNull<String>
  var historyFile: OrNull<String>
  var check: CheckJSON

  init(_ report: WorkloadReport, historyFile: String?) {
    workload = report.name
    clients = report.clients
    seconds = JSONNumber(seconds: report.elapsed)
    calls = report.history.operations.count
    unknown = report.unknownOperations
    failed = report.failedOperations
    faults = report.history.faults.map { fault in
      Fault(
        fault: fault.kind.rawValue, target: fault.target,
        start: JSONNumber(seconds: .nanoseconds(fault.start)),
        end: OrNull(fault.end.map { JSONNumber(seconds: .nanoseconds($0)) }))
    }
    stoppedBy = OrNull(report.stoppedBy.map(SignalName.name(of:)))
    self.historyFile = OrNull(historyFile)
    check = CheckJSON(file: report.historyName, history: report.history, report.verdict)
  }
}
