import RaceCheckEngine

extension HTMLReport {
  /// The page of a recorded history's check: the verdict, each process a lane, and for a violation its window, longest linearization and the operations that cannot be placed.
  ///
  /// - Parameters:
  ///   - verdict: What the history checker found.
  ///   - history: The history it checked.
  ///   - file: The history file, as the user named it, or `workload NAME`.
  ///   - text: The report's text, which the page ends with; by default, `racecheck check`'s.
  ///   - showsWitness: Whether a linearizable history's page lists the order the search found (`--witness`).
  /// - Returns: The page's HTML, a whole document.
  static func page(
    of verdict: HistoryVerdict, history: RecordedHistory, file: String, text: [String]? = nil,
    showsWitness: Bool = false
  ) -> String {
    let headline: String
    switch verdict.verdict {
    case .linearizable: headline = "linearizable under the \(history.model) model"
    case .notLinearizable: headline = "NOT linearizable under the \(history.model) model"
    case .unknown: headline = "unknown: the search did not decide"
    }
    var page = HTMLPage(title: "racecheck check: \(file): \(headline)")
    var facts: [HTMLFragment.Fact] = [
      .wideCode("file", "File", file),
      .text("model", "Model", history.model),
      .text("verdict", "Verdict", verdict.verdict.rawValue),
      .text("operations", "Operations", String(history.operations.count)),
    ]
    let keyed = verdict.parts.count > 1 || verdict.parts.first?.key != nil
    if keyed {
      facts.append(.text("parts", "Keys", "\(verdict.parts.count) checked apart"))
    }
    if let key = verdict.violation?.key {
      facts.append(.code("key", "Failing key", Value.quoted(key)))
    }
    facts.append(
      .text(
        "time", "Time", "\(PlainNumber.text((verdict.elapsed.seconds * 1000).rounded() / 1000)) s"))
    let state =
      switch verdict.verdict {
      case .linearizable: "pass"
      case .notLinearizable: "fail"
      case .unknown: "inconclusive"
      }
    page.append(summary("\(file): \(headline)", verdict: state, facts))
    let timeline = Timeline(history: history, violation: verdict.violation)
    let caption =
      "The history: each process a lane, each operation a bar from its call to its return, "
      + "labelled with its arguments and result."
      + (verdict.violation?.key.map {
        " The marks are on the operations of key \(Value.quoted($0)); search key:\(Value.quoted($0)) to find them all."
      } ?? "")
    page.append(
      "<section class=\"explanation\"><h2>\(verdict.violation == nil ? "History" : "Why no order works")</h2>"
    )
    page.appendTimeline(timeline, caption: caption)
    page.append(timeline.faultsHTML)
    page.append(timeline.marksHTML)
    if showsWitness {
      page.append(
        timeline.witnessHTML(
          verdict.parts.compactMap { part in part.witness.map { (part.key, $0) } }))
    }
    page.append("</section>")
    let text =
      text
      ?? HistoryVerdictText(
        file: file, history: history, verdict: verdict, showsWitness: showsWitness
      ).lines
    page.append(textReport(text.joined(separator: "\n")))
    return page.html
  }
}
