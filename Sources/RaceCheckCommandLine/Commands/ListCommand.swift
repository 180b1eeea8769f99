import RaceCheckEngine

/// `racecheck list`: each target with the verdict it is expected to reach and its summary.
enum ListCommand {
  static let spec = CommandSpec(
    name: "list",
    abstract: "List the targets and workloads with their expected verdicts.",
    arguments: [],
    options: [],
    discussion: [
      "The expected verdict is 'pass', 'fail: <diagnosis>', or '—' when none is known.",
      "The workloads, which 'workload' runs, follow the targets in a table of their own.",
    ],
    execute: { _, context in run(context) })

  static func run(_ context: CommandContext) -> ExitStatus {
    let targets = context.driver.targets
    let workloads = context.driver.workloads
    guard !targets.isEmpty || !workloads.isEmpty else {
      context.print("This program has no targets.")
      return .success
    }
    if !targets.isEmpty {
      let rows =
        [["target", "expected", "summary"]]
        + targets.map { [$0.name, describe($0.stressExpectation), $0.summary] }
      TextTable.render(rows).forEach(context.print)
    }
    if !workloads.isEmpty {
      if !targets.isEmpty { context.print("") }
      let rows =
        [["workload", "expected", "summary"]]
        + workloads.map { [$0.name, describe($0.expectation), $0.summary] }
      TextTable.render(rows).forEach(context.print)
    }
    return .success
  }

  /// An expectation as `list` and `demo` show it: `pass`, `fail: <diagnosis>`, or `—` for none.
  static func describe(_ expectation: Expectation?) -> String {
    guard let expectation else { return "—" }
    switch expectation.verdict {
    case .pass: return "pass"
    case .fail:
      let others = expectation.otherBugs.map(\.rawValue).sorted()
      return (expectation.diagnosis.map { "fail: \($0.rawValue)" } ?? "fail")
        + (others.isEmpty ? "" : " (or " + others.joined(separator: ", ") + ")")
    case .inconclusive: return "inconclusive"
    }
  }
}
