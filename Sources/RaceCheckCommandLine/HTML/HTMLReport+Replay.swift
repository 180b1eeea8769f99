import RaceCheckEngine

extension HTMLReport {
  /// The page of a replay: whether the failure showed again and how often, and the evidence of the first failing invocation.
  ///
  /// - Parameters:
  ///   - report: The replay's report.
  ///   - file: The repro file replayed, as the user named it.
  ///   - window: The failure's smallest failing window as entry indexes, when it was worked out.
  /// - Returns: The page's HTML, a whole document.
  static func page(of report: ReplayReport, file: String, window: [Int]?) -> String {
    let target = report.repro.target
    let headline: String
    switch report.outcome {
    case .reproduced: headline = "the failure showed again"
    case .notReproduced: headline = "the failure did not show again"
    case .inconclusive(let reason): headline = "inconclusive: \(reason)"
    case .specError(let error): headline = "the spec is broken: \(error.message)"
    }
    var page = HTMLPage(title: "racecheck replay: \(target): \(headline)")
    var facts: [HTMLFragment.Fact] = [
      .text("target", "Target", target),
      .wideCode("repro", "Repro file", file),
      .text("outcome", "Outcome", headline),
      .text(
        "invocations", "Failed",
        "in \(report.failures) of \(report.invocations) invocation\(report.invocations == 1 ? "" : "s")"
          + (report.failureRate.map { " (a failure rate of \(CheckReport.percent($0)))" } ?? "")),
    ]
    if let diagnosis = report.diagnosis {
      facts.append(.code("diagnosis", "Diagnosis", diagnosis.pattern.rawValue))
    }
    facts.append(.code("seed", "Seed", report.repro.seed))
    if let divergence = report.divergence {
      facts.append(.text("divergence", "Left the schedule", divergence))
    }
    facts.append(.text("time", "Time", CheckReport.formatDuration(report.elapsed)))
    let verdict: String
    switch report.outcome {
    case .reproduced: verdict = "fail"
    case .notReproduced, .inconclusive, .specError: verdict = "inconclusive"
    }
    page.append(summary("Replay of \(target): \(headline)", verdict: verdict, facts))
    if let evidence = report.evidence {
      FailureHTML(
        evidence: evidence, diagnosis: report.diagnosis, scenario: report.repro.scenario,
        trace: report.trace, voidOperations: report.voidOperations, window: window
      ).append(to: &page)
    } else {
      page.append(
        HTMLFragment.section(
          "Scenario", class: "scenario-section",
          HTMLFragment.preformatted(
            ScenarioTable(scenario: report.repro.scenario, results: nil, voidOperations: [])
              .render(), class: "scenario")))
      if let trace = report.trace {
        page.append(
          HTMLFragment.section(
            "Interleaving (\(trace.summary()))",
            class: "interleaving-section", trace.html))
      }
    }
    return page.html
  }
}
