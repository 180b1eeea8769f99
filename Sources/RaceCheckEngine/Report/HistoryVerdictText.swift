/// The text `racecheck check` prints: the verdict, and for a violation the window, the longest prefix and why it stops.
package struct HistoryVerdictText {
  let file: String
  let history: RecordedHistory
  let verdict: HistoryVerdict
  /// The signal that stopped an undecided search, if one did rather than the time limit.
  var interruptedBy: Int32? = nil
  /// Whether a linearizable history's text goes on with the order the search found.
  var showsWitness = false

  /// Creates the text of `verdict` on `history`, read from `file`.
  package init(
    file: String, history: RecordedHistory, verdict: HistoryVerdict, interruptedBy: Int32? = nil,
    showsWitness: Bool = false
  ) {
    self.file = file
    self.history = history
    self.verdict = verdict
    self.interruptedBy = interruptedBy
    self.showsWitness = showsWitness
  }

  /// At most this many operations are listed in one place; the rest are counted.
  private static let listed = 12

  package var lines: [String] {
    let operations = verdict.parts.reduce(0) { $0 + $1.operations }
    let keyed = verdict.parts.count > 1 || verdict.parts.first?.key != nil
    let partsText =
      keyed
      ? ", \(verdict.parts.count) key\(verdict.parts.count == 1 ? "" : "s") checked apart" : ""
    let summary =
      "\(history.operations.count) operations (\(operations) searched\(partsText)), \(PlainNumber.text(milliseconds(verdict.elapsed))) s"
    switch verdict.verdict {
    case .linearizable:
      let verdictLine = "\(file): linearizable under the \(history.model) model; \(summary)."
      return showsWitness ? [verdictLine] + witness : [verdictLine]
    case .unknown:
      let open = verdict.parts.filter { $0.verdict == .unknown }.count
      let undecided =
        "\(open) of \(verdict.parts.count) part\(verdict.parts.count == 1 ? "" : "s") undecided; \(summary)."
      if let signal = interruptedBy {
        return ["\(file): unknown: interrupted by \(SignalName.name(of: signal)) with \(undecided)"]
      }
      return [
        "\(file): unknown: the time ran out with \(undecided)", "A longer --timeout may decide it.",
      ]
    case .notLinearizable:
      var lines = ["\(file): NOT linearizable under the \(history.model) model; \(summary)."]
      if let violation = verdict.violation { lines += describe(violation) }
      return lines
    }
  }

  private func describe(_ violation: Violation) -> [String] {
    var lines: [String] = [""]
    if let key = violation.key {
      lines.append("The history of key \(Value.quoted(key)) has no linearization.")
    }
    let window = violation.window
    if let first = window.first, let last = window.last {
      let operations =
        window.count == 1
        ? "the 1 operation \(history.citation(of: first))"
        : "the \(window.count) operations called from \(history.citation(of: first)) to "
          + history.citation(of: last)
      lines.append(
        "Smallest failing window: \(operations); no order of them explains every result:")
      lines += listing(window)
    }
    lines += extentAndProof(violation)
    lines.append("")
    lines.append(
      "Longest partial linearization: \(violation.longestPrefix.count) operation\(violation.longestPrefix.count == 1 ? "" : "s")"
        + (violation.longestPrefix.isEmpty ? "." : ", in this order:"))
    lines += listing(violation.longestPrefix)
    lines.append("The model's state then: \(violation.state)")
    lines.append("It cannot be extended: every operation that could come next fails.")
    for candidate in violation.candidates {
      let operation =
        "\(history.citation(of: candidate.operation)) \(history.describe(candidate.operation))"
      if candidate.fits {
        lines.append("  - \(operation): fits here, but no order after it works")
      } else {
        lines.append("  - \(operation): the model returns \(candidate.modelReturns.resultText)")
      }
    }
    return lines
  }

  /// Each part's linearization, whole: `--witness` asked for it.
  private var witness: [String] {
    var lines: [String] = []
    for part in verdict.parts {
      guard let order = part.witness else { continue }
      lines.append("")
      let key = part.key.map { " of key \(Value.quoted($0))" } ?? ""
      lines.append(
        "A linearization\(key): \(order.count) operation\(order.count == 1 ? "" : "s")"
          + (order.isEmpty ? "." : ", in this order:"))
      lines += order.map { "    \(history.citation(of: $0)) \(history.describe($0))" }
    }
    return lines
  }

  /// Says when the window may not be the smallest, and cites the operation a proof without search rests on.
  private func extentAndProof(_ violation: Violation) -> [String] {
    var lines: [String] = []
    switch violation.windowExtent {
    case .smallest: break
    case .budgetExhausted:
      lines.append(
        "(The explanation's budget ran out: a smaller window may fail too.)")
    case .upToProof:
      lines.append("(The window ends where the proof below does; a smaller one may fail too.)")
    }
    // A proof of a search's violation may rest on an operation after its window.
    let proofLead = { (operation: Int) in
      violation.window.contains(operation)
        ? "Proof without search" : "Later in the history, a proof without search"
    }
    switch violation.proof {
    case .impossibleRead(let operation, let value)?:
      lines.append(
        "\(proofLead(operation)): \(history.citation(of: operation)) \(history.describe(operation)) saw \(value), "
          + "which is not the initial value and which no operation called before it returned may have stored."
      )
    case .staleRead(let operation, let value, let producers, let initialHeld, let overwriter)?:
      let stores =
        switch (producers.isEmpty, initialHeld) {
        case (true, _): "the initial state, the only one that held \(value),"
        case (false, true):
          "the initial state and every operation that may have stored \(value) and was called before it returned (below)"
        case (false, false):
          "every operation that may have stored \(value) and was called before it returned (below)"
        }
      lines.append(
        "\(proofLead(operation)), a stale read: \(history.citation(of: operation)) \(history.describe(operation)) saw \(value), "
          + "which was overwritten before it was called: \(history.citation(of: overwriter)) "
          + "\(history.describe(overwriter)) stored into it and returned before it was called, "
          + "and \(stores) returned before that store was called.")
      lines += listing(producers)
    case nil: break
    }
    return lines
  }

  private func listing(_ indexes: [Int]) -> [String] {
    var lines = indexes.prefix(Self.listed).map {
      "    \(history.citation(of: $0)) \(history.describe($0))"
    }
    if indexes.count > Self.listed {
      lines.append("    … and \(indexes.count - Self.listed) more (--json lists them all)")
    }
    return lines
  }

  /// `duration` in seconds, rounded to the millisecond.
  private func milliseconds(_ duration: Duration) -> Double {
    (duration.seconds * 1000).rounded() / 1000
  }
}
