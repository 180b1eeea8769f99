import RaceCheckEngine

/// Renders racecheck's reports as self-contained HTML pages, one entry point per kind of page.
///
/// Each page has a summary of plain HTML (target, verdict, diagnosis, seed, how to run it
/// again), the failing history drawn as lanes of bars with the checker's marks, and the
/// same marks as plain HTML. `--html FILE` on `run`, `replay`, `check` and `demo` writes
/// them:
///
/// ```swift
/// let report = target.checkable.check(configuration)
/// let html = HTMLReport.page(of: report, window: nil)
/// try html.write(toFile: "LockArray.html", atomically: true, encoding: .utf8)
/// ```
enum HTMLReport {
  /// The page's header: a headline, and the facts as a description list.
  static func summary(_ headline: String, verdict: String, _ facts: [HTMLFragment.Fact]) -> String {
    "<header class=\"summary\" data-verdict=\"\(HTMLText.escaped(verdict))\">"
      + "<h1>\(HTMLText.escaped(headline))</h1>\(HTMLFragment.facts(facts))</header>"
  }

  /// The text report, folded away below the page, for what the page does not draw.
  static func textReport(_ text: String) -> String {
    "<details class=\"text-report\"><summary>The text report</summary>"
      + HTMLFragment.preformatted(text, class: "report-text") + "</details>"
  }
}
