import Foundation
import RaceCheckEngine

/// What `check` and `workload` write for a history's verdict: the JUnit file, the HTML page, and the JSON document or the text.
struct HistoryVerdictOutput {
  /// The history's name in the reports: its file, or `workload NAME`.
  var name: String
  var history: RecordedHistory
  var verdict: HistoryVerdict
  /// The text the command prints, whose lines also make the JUnit details and the page's text.
  var text: [String]
  /// The JUnit test case's class, such as `racecheck.check`.
  var junitClass: String
  /// Whether the page lists a linearizable history's order (`--witness`).
  var showsWitness = false

  /// The exit status of the verdict alone.
  var status: ExitStatus {
    switch verdict.verdict {
    case .linearizable: .success
    case .notLinearizable: .failureFound
    case .unknown: .undecided
    }
  }

  /// Writes the `--junit` and `--html` files asked for, then prints `json` (with `--json`) or the text, and returns the command's status.
  func emit(
    _ parsed: ParsedArguments, _ context: CommandContext, status: ExitStatus,
    json: () -> any Encodable
  ) -> ExitStatus {
    var status = status
    if let junitPath = parsed.value("--junit") {
      let details = text.joined(separator: "\n")
      let outcome: JUnitReport.TestCase.Outcome =
        switch verdict.verdict {
        case .linearizable: .passed
        case .notLinearizable:
          .failed(message: "not linearizable", type: "not-linearizable", details: details)
        case .unknown:
          .error(
            message: "undecided: the search stopped first", type: "undecided", details: details)
        }
      let junit = JUnitReport(
        name: "racecheck \(parsed.command.name)",
        cases: [
          JUnitReport.TestCase(
            name: name, className: junitClass, time: verdict.elapsed, outcome: outcome,
            output: verdict.verdict == .linearizable ? details : nil)
        ], timestamp: Date())
      status = status.afterWritingReportFile(
        succeeded: context.writeReportFile(junit.xml, to: junitPath, what: "JUnit report"))
    }
    status = HTMLOption.write(parsed, status: status, context) {
      HTMLReport.page(
        of: verdict, history: history, file: name, text: text, showsWitness: showsWitness)
    }
    if parsed.flag("--json") { return context.printJSON(json(), status: status) }
    text.forEach(context.print)
    return status
  }
}
