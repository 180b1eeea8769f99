extension InterleavingTrace {
  /// The trace as a table with one column per thread; a step fills its thread's column, so a change of column is a switch.
  ///
  /// ```
  /// | Thread 0             | Thread 1             |
  /// | increment            |                      |
  /// |   lock acquire 'L'   |                      |
  /// |   cell read → 0      |                      |
  /// |                      | increment            |
  /// ```
  ///
  /// Threads of the same name share a column: the blocks of one `async` call's task.
  package func render(maxSteps: Int = 400) -> String {
    var titles: [String] = []
    let columnOf = threadNames.map { name in
      if let column = titles.firstIndex(of: name) { return column }
      titles.append(name)
      return titles.count - 1
    }
    let columns = titles.count
    let shown = steps.prefix(maxSteps)
    let rows: [[String]] = shown.map { step in
      var row = Array(repeating: "", count: columns)
      row[columnOf[step.thread]] = step.isOperation ? step.text : "  " + step.text
      return row
    }
    let all = [titles] + rows
    let widths = (0..<columns).map { column in
      min(44, all.map { $0[column].count }.max() ?? 0)
    }
    func fit(_ text: String, _ width: Int) -> String {
      text.count > width
        ? String(text.prefix(width - 1)) + "…"
        : text + String(repeating: " ", count: width - text.count)
    }
    func line(_ cells: [String]) -> String {
      "| " + zip(cells, widths).map { fit($0, $1) }.joined(separator: " | ") + " |"
    }
    var lines = [line(titles)]
    lines.append(
      "| " + widths.map { String(repeating: "-", count: $0) }.joined(separator: " | ") + " |")
    lines += rows.map(line)
    if steps.count > maxSteps { lines.append("… \(steps.count - maxSteps) more steps") }
    if let after = stepsAfterTheFailure, after > 0 {
      lines.append("… then \(after) steps after the failed expectation, not shown")
    }
    return lines.joined(separator: "\n")
  }
}
