import RaceCheckEngine

extension HTMLReport {
  /// One row of the demo's page: a target checked with one seed, against the verdict the catalogue expects.
  struct DemoRow {
    /// The target's name.
    var target: String
    /// The expected verdict, as the demo's table shows it: `fail: insert-at-count-rejected`.
    var expected: String
    /// Whether the check met the expectation.
    var agrees: Bool
    /// The check's report.
    var report: CheckReport
    /// The failure's smallest failing window as entry indexes, when it was worked out.
    var window: [Int]?
  }

  /// The demo's page: a table of every row, each failing row linking to a section with its failure.
  ///
  /// - Parameters:
  ///   - rows: The rows, in the order they were checked.
  ///   - elapsed: The demo's wall-clock time.
  /// - Returns: The page's HTML, a whole document.
  static func page(ofDemo rows: [DemoRow], elapsed: Duration) -> String {
    let agreed = rows.filter(\.agrees).count
    let tally = "\(agreed) of \(rows.count) rows agree with the catalogue"
    var page = HTMLPage(title: "racecheck demo: \(tally)")
    page.append(
      summary(
        tally, verdict: agreed == rows.count ? "pass" : "fail",
        [
          .text("rows", "Rows", String(rows.count)),
          .text("agreed", "Agree", String(agreed)),
          .text("time", "Time", CheckReport.formatDuration(elapsed)),
        ]))
    var table =
      "<table class=\"demo-rows\"><thead><tr><th>target</th><th>expected</th><th>found</th>"
      + "<th>diagnosis</th><th>seed</th><th>time</th><th>agrees</th></tr></thead><tbody>"
    for (number, row) in rows.enumerated() {
      let report = row.report
      let found = report.specError != nil ? "spec error" : report.verdict.rawValue
      let name = HTMLText.escaped(row.target)
      let target = report.failure == nil ? name : "<a href=\"#row-\(number + 1)\">\(name)</a>"
      table +=
        "<tr class=\"\(row.agrees ? "agrees" : "disagrees") \(report.verdict.rawValue)\" "
        + "data-row=\"\(number + 1)\" data-target=\"\(name)\"><td>\(target)</td>"
        + "<td>\(HTMLText.escaped(row.expected))</td><td>\(found)</td>"
        + "<td>\(report.failure.map { "<code>\($0.diagnosis.pattern.rawValue)</code>" } ?? "—")</td>"
        + "<td><code>\(Configuration.formatSeed(report.seed))</code></td>"
        + "<td>\(CheckReport.formatDuration(report.elapsed))</td>"
        + "<td>\(row.agrees ? "yes" : "no")</td></tr>"
    }
    table += "</tbody></table>"
    page.append(HTMLFragment.section("Rows", class: "demo", table))
    for (number, row) in rows.enumerated() where row.report.failure != nil {
      let report = row.report
      page.append(
        "<section class=\"demo-failure\" id=\"row-\(number + 1)\"><h2>\(HTMLText.escaped(report.target)) "
          + "\(HTMLText.escaped(headline(of: report))) (seed \(Configuration.formatSeed(report.seed)))</h2>"
          + HTMLFragment.facts(facts(of: report)))
      appendOutcome(of: report, window: row.window, to: &page)
      page.append("<p class=\"back\"><a href=\"#\">Back to the rows</a></p></section>")
    }
    return page.html
  }
}
