import RaceCheckEngine

extension InterleavingTrace {
  /// At most this many steps are written; a trace past it ends with a count of the rest.
  static let htmlSteps = 5_000

  /// The trace as a table: a column per thread, a row per step, operations in bold; a change of column is a switch.
  var html: String {
    var titles: [String] = []
    // Threads of the same name share a column, as in the text report: the blocks of one async call's task.
    let columnOf = threadNames.map { name in
      if let column = titles.firstIndex(of: name) { return column }
      titles.append(name)
      return titles.count - 1
    }
    var html = "<table class=\"interleaving\"><thead><tr><th>step</th>"
    html += titles.map { "<th>\(HTMLText.escaped($0))</th>" }.joined()
    html += "</tr></thead><tbody>"
    var previous: Int?
    for (number, step) in steps.prefix(Self.htmlSteps).enumerated() {
      let column = columnOf.indices.contains(step.thread) ? columnOf[step.thread] : 0
      var classes = step.isOperation ? ["operation"] : ["step"]
      if let previous, previous != column { classes.append("switch") }
      previous = column
      html += "<tr class=\"\(classes.joined(separator: " "))\" data-thread=\"\(step.thread)\">"
      html += "<td class=\"number\">\(number + 1)</td>"
      for cell in 0..<titles.count {
        html += cell == column ? "<td>\(HTMLText.escaped(step.text))</td>" : "<td></td>"
      }
      html += "</tr>"
    }
    html += "</tbody></table>"
    if steps.count > Self.htmlSteps {
      html += "<p class=\"more\">… and \(steps.count - Self.htmlSteps) more steps.</p>"
    }
    if !schedule.isEmpty {
      html += "<p class=\"schedule\">Schedule: <code>\(scheduleString)</code></p>"
    }
    return html
  }
}
