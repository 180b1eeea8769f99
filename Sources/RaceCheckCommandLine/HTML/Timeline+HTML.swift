import RaceCheckEngine

extension Timeline {
  /// How the page names operation `index`: `operations[2]`, or its line in the file it was read from.
  func citation(_ index: Int) -> String {
    operations[index].recorded.source.citation(index: index)
  }

  /// Operation `index` as the page's lists name it: `operations[2] count → 1 on Thread 0`.
  func describe(_ index: Int) -> String {
    let operation = operations[index]
    let result: String
    switch operation.recorded.status {
    case .ok: result = operation.result.map { " → \($0)" } ?? ""
    case .fail: result = " (failed)"
    case .info: result = " → ? (outcome unknown)"
    }
    return "\(citation(index)) \(operation.recorded.callText)\(result) on \(lanes[operation.lane])"
  }

  /// The faults as plain HTML beside the canvas, each with its times in seconds; empty when there were none.
  var faultsHTML: String {
    guard !faults.isEmpty else { return "" }
    let origin = operations.map(\.recorded.call).min() ?? 0
    func seconds(_ time: Int64) -> String {
      PlainNumber.text((Double(time &- origin) / 1e6).rounded() / 1000) + " s"
    }
    return "<p class=\"faults-summary\">\(faults.count) fault\(faults.count == 1 ? "" : "s") "
      + "injected while the operations ran (the shaded bands):</p>"
      + HTMLFragment.list(
        "ul", class: "faults",
        faults.map { fault in
          let end = fault.end.map { "to \(seconds($0))" } ?? "never healed"
          return "<li data-fault=\"\(fault.kind.rawValue)\">"
            + HTMLText.escaped(
              "\(fault.kind.rawValue) \(fault.target): from \(seconds(fault.start)) \(end)")
            + "</li>"
        })
  }

  /// The marks as plain HTML beside the canvas: the window, the longest linearization, the model's state and why each next operation fails.
  ///
  /// Every item names its operation with `data-operation`, its index in the history, so that
  /// a reader (or a test) finds the marked operations without the script.
  var marksHTML: String {
    guard let marks else { return "" }
    var html = ""
    if let window = marks.window, let first = window.first, let last = window.last {
      html +=
        "<p class=\"window-summary\">Smallest failing window: the \(window.count) "
        + "operation\(window.count == 1 ? "" : "s") called from \(HTMLText.escaped(citation(first))) to "
        + "\(HTMLText.escaped(citation(last))); no order of them explains every result.</p>"
      html += HTMLFragment.list("ul", class: "failing-window", window.map(item))
    } else {
      html +=
        "<p class=\"window-summary\">The smallest failing window is not worked out for a "
        + "spec's own model; the minimized scenario is the smallest failing one found.</p>"
    }
    html +=
      "<p class=\"linearization-summary\">Longest linearization: \(marks.order.count) of "
      + "\(operations.count) operations\(marks.order.isEmpty ? "; none can be placed first." : ", in this order:")</p>"
    html += HTMLFragment.list("ol", class: "longest-linearization", marks.order.map(item))
    html +=
      "<p class=\"model-state\">The model's state then: <code>\(HTMLText.escaped(marks.state))</code></p>"
    html += "<p>Every operation that could come next fails:</p>"
    html += HTMLFragment.list(
      "ul", class: "candidates",
      marks.candidates.map { candidate in
        let name =
          "\(operations[candidate.operation].recorded.callText) on \(lanes[operations[candidate.operation].lane])"
        let text: String
        switch candidate.failure {
        case .unplaceable(let returned, let allowed):
          text =
            "\(citation(candidate.operation)) \(name) returned \(returned); "
            + "the model allows \(allowed)"
        case .deadEnd:
          // As the text report has it: what it returned, nothing for one that returns nothing.
          let operation = operations[candidate.operation]
          let fits =
            operation.recorded.status == .info
            ? "(outcome unknown) fits here"
            : operation.result.map { "returned \($0), as the model allows" } ?? "fits here"
          text = "\(citation(candidate.operation)) \(name) \(fits), but no order after it works"
        }
        return "<li class=\"\(candidate.fits ? "dead-end" : "unplaceable")\" "
          + "data-operation=\"\(candidate.operation)\">\(HTMLText.escaped(text))</li>"
      })
    return html
  }

  /// Each linearizable part's order as the search found it, as a list of the page's operations.
  func witnessHTML(_ parts: [(key: String?, order: [Int])]) -> String {
    parts.map { key, order in
      let of = key.map { " of key <code>\(HTMLText.escaped(Value.quoted($0)))</code>" } ?? ""
      return "<p class=\"witness-summary\">A linearization\(of): \(order.count) "
        + "operation\(order.count == 1 ? "" : "s")\(order.isEmpty ? "." : ", in this order:")</p>"
        + HTMLFragment.list("ol", class: "witness", order.map(item))
    }.joined()
  }

  private func item(_ index: Int) -> String {
    "<li data-operation=\"\(index)\">\(HTMLText.escaped(describe(index)))</li>"
  }
}
