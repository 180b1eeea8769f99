import RaceCheckEngine

extension HTMLReport {
  /// The page of one check: its verdict and, for a failure, the history with its marks, the scenario, the interleaving or the stacks.
  ///
  /// - Parameters:
  ///   - report: The check's report.
  ///   - window: The failure's smallest failing window as entry indexes, when it was worked out
  ///     (``Checkable/failingWindow(of:)``).
  /// - Returns: The page's HTML, a whole document.
  static func page(of report: CheckReport, window: [Int]?) -> String {
    var page = HTMLPage(title: "racecheck: \(report.target) \(headline(of: report))")
    page.append(
      summary(
        "\(report.target) \(headline(of: report))", verdict: report.verdict.rawValue,
        facts(of: report)))
    appendOutcome(of: report, window: window, to: &page)
    return page.html
  }

  /// How the check ended, as a headline says it after the target's name: `is not linearizable`.
  static func headline(of report: CheckReport) -> String {
    if report.specError != nil { return "has a broken spec" }
    switch report.outcome {
    case .passed: return "passed"
    case .inconclusive: return "is inconclusive"
    case .killedFromOutside: return "has no verdict: its child was killed from outside"
    case .internalFault: return "has no verdict: racecheck's own code crashed"
    case .specError: return "has a broken spec"
    case .failed(let failure): return failure.headline
    }
  }

  /// The facts of a check's summary: verdict, diagnosis, seed, what was explored, and how to run it again.
  static func facts(of report: CheckReport) -> [HTMLFragment.Fact] {
    var facts: [HTMLFragment.Fact] = [
      .text("target", "Target", report.target),
      .text(
        "verdict", "Verdict",
        report.verdict.rawValue + (report.failure.map { " (\($0.kind.rawValue))" } ?? "")),
    ]
    if let failure = report.failure {
      facts.append(.code("diagnosis", "Diagnosis", failure.diagnosis.pattern.rawValue))
    }
    facts.append(.code("seed", "Seed", Configuration.formatSeed(report.seed)))
    facts.append(
      .text(
        "mode", "Mode",
        report.configuration.scheduleSettings.map { "schedule (\($0.summary))" } ?? "stress"
      ))
    if let failure = report.failure {
      let run = report.configuration.scheduleSettings == nil ? "invocation" : "schedule"
      facts.append(
        .text(
          "found", "Found",
          "in scenario \(failure.scenarioIndex + 1) after \(report.invocations) "
            + "\(run)\(report.invocations == 1 ? "" : "s"), \(CheckReport.formatDuration(failure.timeToFind))"
        ))
      facts.append(
        .text(
          "minimized", "Minimized",
          "\(failure.original.size) operations shrunk to \(failure.scenario.size) in "
            + "\(failure.shrinkSteps) step\(failure.shrinkSteps == 1 ? "" : "s")"
            + (failure.timeToShrink.map { ", \(CheckReport.formatDuration($0))" } ?? "")
            + failure.shrinkingNote
        ))
      facts.append(
        .text(
          "failed-invocations", "Failed again",
          "in \(failure.failedInvocations) of \(failure.invocations) further \(run)s"))
    } else if let reason = report.inconclusiveReason {
      facts.append(.text("inconclusive", "Cut short", reason.description))
    } else if let error = report.specError {
      facts.append(.text("spec-error", "Spec error", error.message))
    } else {
      facts.append(.text("search", "Explored", report.searchDescription))
    }
    facts.append(.text("time", "Time", CheckReport.formatDuration(report.elapsed)))
    if let command = report.replayCommand {
      facts.append(.wideCode("replay", "Replay", command))
    }
    switch report.failure?.repro {
    case .written(let path): facts.append(.wideCode("repro", "Repro file", path))
    case .notWritten(let reason):
      facts.append(.text("repro", "Repro file", "not written: \(reason)"))
    case nil: break
    }
    return facts
  }

  /// The failure's sections, then the text report.
  static func appendOutcome(of report: CheckReport, window: [Int]?, to page: inout HTMLPage) {
    if let failure = report.failure {
      FailureHTML(
        evidence: failure.evidence, diagnosis: failure.diagnosis, findings: failure.findings ?? [],
        scenario: failure.scenario, trace: failure.trace,
        preemptionsBeforeShrinking: failure.preemptionsBeforeShrinking,
        voidOperations: report.voidOperations, window: window
      ).append(to: &page)
    }
    page.append(textReport(report.description))
  }
}
