/// Draws a scenario as a table: one column per thread, the init part above a line, the post part below one.
///
/// ```
/// | Thread 0          | Thread 1          |
/// | ----------------- | ----------------- |
/// | insert(3, 0)      |                   |
/// | ----------------- | ----------------- |
/// | increment         | increment         |
/// | ----------------- | ----------------- |
/// | get: 1            |                   |
/// ```
/// Cells show `operation(arguments): result` when the history has the call's result.
package struct ScenarioTable {
  let scenario: Scenario
  /// The result of each call in history order, or nil to show calls only.
  let results: [Value]?
  /// Names of the operations that return nothing, whose results are left out.
  let voidOperations: Set<String>

  /// Creates the table of `scenario`, with `results` in its cells when they are known.
  package init(scenario: Scenario, results: [Value]?, voidOperations: Set<String>) {
    self.scenario = scenario
    self.results = results
    self.voidOperations = voidOperations
  }

  package func render() -> String {
    var index = 0
    func cell(_ call: Scenario.Call) -> String {
      defer { index += 1 }
      guard let results, index < results.count, !voidOperations.contains(call.operation) else {
        return call.description
      }
      return call.description + ": " + results[index].description
    }
    let columnCount = max(1, scenario.parallel.count)
    let initial = scenario.initial.map { [cell($0)] + Array(repeating: "", count: columnCount - 1) }
    var parallelCells: [[String]] = scenario.parallel.map { $0.map(cell) }
    let post = scenario.post.map { [cell($0)] + Array(repeating: "", count: columnCount - 1) }
    let height = parallelCells.map(\.count).max() ?? 0
    parallelCells = parallelCells.map { $0 + Array(repeating: "", count: height - $0.count) }
    let parallel = (0..<height).map { row in parallelCells.map { $0[row] } }
    let header = (0..<columnCount).map { "Thread \($0)" }

    let all = [header] + initial + parallel + post
    let widths = (0..<columnCount).map { column in all.map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      "| "
        + zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(
          separator: " | ")
        + " |"
    }
    let rule =
      "| " + widths.map { String(repeating: "-", count: $0) }.joined(separator: " | ") + " |"
    // Sections are separated by rules; an empty section draws nothing.
    let sections = [initial, parallel, post].filter { !$0.isEmpty }
    var lines = [line(header)]
    for section in sections {
      lines.append(rule)
      lines += section.map(line)
    }
    return lines.joined(separator: "\n")
  }
}
