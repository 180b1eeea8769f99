import Foundation
import RaceCheckEngine

/// `racecheck merge FILE…`: the verdict of a run or demo that `--shard` split across machines, from the parts' `--json` documents.
enum MergeCommand {
  static let spec = CommandSpec(
    name: "merge",
    abstract:
      "Combine the --json documents of a sharded run or demo into the verdict of the whole.",
    arguments: [
      ArgumentSpec(
        name: "file",
        help: "The --json output of each part: of 'run … --shard K/N' or of 'demo --shard K/N'.",
        isVariadic: true)
    ],
    options: [
      .flag(
        "--json", "Print one JSON document, shaped as the unsharded command's, instead of the text."
      ),
      .value("--junit", "FILE", "Write the merged verdicts to FILE as JUnit XML, for CI."),
    ],
    discussion: [
      "The files must be the N parts of one run, each exactly once: all of 'demo', or all of",
      "'run' with the same target and seed. A run fails when a part failed (the report is the",
      "part's whose failing scenario comes first, as the unsharded run would have found it), is",
      "inconclusive when a part was, and passes when every part passed; a demo's rows are put",
      "back in order. Exits as the unsharded command would (0, 1, 3 or 78), 65 when a file is",
      "unreadable or no such document or the parts do not cover the run exactly once, and 73",
      "when the --junit file could not be written.",
    ],
    execute: { parsed, context throws(UsageError) in run(parsed, context) })

  /// Why the files cannot be merged.
  struct MergeError: Error, CustomStringConvertible {
    var description: String
  }

  /// One part's document, as read from its file.
  enum Part {
    case run(RunJSON)
    case demo(DemoJSON)
  }

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) -> ExitStatus {
    let merged: (status: ExitStatus, json: any Encodable, text: [String], junit: JUnitReport)
    do {
      let parts = try parsed.positionals.map { path in (path: path, part: try read(path)) }
      let runs = parts.compactMap {
        if case .run(let run) = $0.part { ($0.path, run) } else { nil }
      }
      let demos = parts.compactMap {
        if case .demo(let demo) = $0.part { ($0.path, demo) } else { nil }
      }
      if !runs.isEmpty, !demos.isEmpty {
        throw MergeError(description: "the files mix the output of 'run' and of 'demo'")
      }
      merged =
        runs.isEmpty
        ? mergeDemo(try inShardOrder(demos.map { ($0.1.shard.value, $0.0, $0.1) }))
        : try mergeRun(try inShardOrder(runs.map { ($0.1.shard.value, $0.0, $0.1) }))
    } catch {
      context.printError("\(context.programName): merge: \(error)")
      return .dataError
    }
    var status = merged.status
    if let path = parsed.value("--junit") {
      status = status.afterWritingReportFile(
        succeeded: context.writeReportFile(merged.junit.xml, to: path, what: "JUnit report"))
    }
    if parsed.flag("--json") { return context.printJSON(merged.json, status: status) }
    merged.text.forEach(context.print)
    return status
  }

  private static func read(_ path: String) throws -> Part {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw MergeError(description: "\(path): cannot read the file")
    }
    let decoder = JSONDecoder()
    if let demo = try? decoder.decode(DemoJSON.self, from: data) { return .demo(demo) }
    do {
      return .run(try decoder.decode(RunJSON.self, from: data))
    } catch {
      throw MergeError(description: "\(path): not the --json output of 'run' or 'demo'")
    }
  }

  /// The parts in shard order, once every shard of one split is there exactly once.
  static func inShardOrder<Document>(_ parts: [(shard: Shard?, path: String, document: Document)])
    throws -> [Document]
  {
    var count: Int?
    var byIndex: [Int: (path: String, document: Document)] = [:]
    for (shard, path, document) in parts {
      guard let shard else {
        throw MergeError(
          description: "\(path): not one part of a sharded run (it ran without --shard)")
      }
      if let count, count != shard.count {
        throw MergeError(description: "\(path): shard \(shard) is of another split than 1/\(count)")
      }
      count = shard.count
      if let earlier = byIndex[shard.index] {
        throw MergeError(description: "shard \(shard) is given twice: \(earlier.path) and \(path)")
      }
      byIndex[shard.index] = (path, document)
    }
    let total = count ?? 0
    let missing = (1...max(total, 1)).filter { byIndex[$0] == nil }.map { "\($0)/\(total)" }
    guard missing.isEmpty else {
      throw MergeError(
        description:
          "the parts do not cover the run: shard \(missing.joined(separator: ", ")) is missing")
    }
    return (1...total).compactMap { byIndex[$0]?.document }
  }

  /// The demo of every row: the parts' rows in the unsharded demo's order, each target judged over all its rows.
  private static func mergeDemo(_ parts: [DemoJSON]) -> (
    status: ExitStatus, json: any Encodable, text: [String], junit: JUnitReport
  ) {
    let rows = parts.flatMap(\.rows).sorted { $0.index < $1.index }
    let tally = DemoTally(rows.map(\.tallied))
    let seconds = parts.reduce(0) { $0 + ($1.seconds.value.isFinite ? $1.seconds.value : 0) }
    let document = DemoJSON(
      rows: rows, tally: tally, seconds: JSONNumber(seconds), shard: OrNull(nil))
    let elapsed = CheckReport.formatDuration(Duration(secondsOrZero: seconds))
    let text =
      [tally.summary(elapsed: "\(parts.count) shards, \(elapsed) of checking in all")]
      + tally.problems()
    let cases = rows.enumerated().map { position, row in
      JUnitReport.TestCase(
        name: "\(row.target) (seed \(row.seed))", className: "racecheck.demo",
        time: Duration(secondsOrZero: row.seconds.value),
        outcome: tally.junitOutcome(ofRun: position), output: nil)
    }
    return (
      tally.status, document, text,
      JUnitReport(name: "racecheck demo", cases: cases, timestamp: Date())
    )
  }

  /// The check of every scenario: the first failure by scenario, else the first part cut short, else a pass.
  private static func mergeRun(_ parts: [RunJSON]) throws -> (
    status: ExitStatus, json: any Encodable, text: [String], junit: JUnitReport
  ) {
    let first = parts[0]
    for part in parts where part.target != first.target || part.seed != first.seed {
      throw MergeError(
        description: "the parts are not of one run: \(first.target) with seed \(first.seed), "
          + "and \(part.target) with seed \(part.seed)")
    }
    let failing = parts.filter { $0.verdict == .fail }.min {
      ($0.scenarioIndex.value ?? .max) < ($1.scenarioIndex.value ?? .max)
    }
    var merged =
      failing ?? parts.first { $0.specError.value != nil }
      ?? parts.first { $0.verdict == .inconclusive } ?? first
    let shard = merged.shard.value
    merged.search = parts.dropFirst().reduce(first.search) { $0.merging($1.search) }
    merged.scenarios = parts.reduce(0) { $0 + $1.scenarios }
    merged.invocations = parts.reduce(0) { $0 + $1.invocations }
    merged.seconds = JSONNumber(
      parts.reduce(0) { $0 + ($1.seconds.value.isFinite ? $1.seconds.value : 0) })
    merged.shard = OrNull(nil)
    let explored =
      "\(merged.search.scenarios) of \(merged.search.plannedScenarios) scenarios in \(parts.count) "
      + "shards, \(merged.search.invocations) invocations"
    let status: ExitStatus
    var text: [String]
    let outcome: JUnitReport.TestCase.Outcome
    if let error = merged.specError.value {
      status = .specError
      text = ["racecheck: \(merged.target): the spec is broken: \(error)"]
      outcome = .error(message: text[0], type: "spec-error", details: "")
    } else if merged.verdict == .fail {
      status = .failureFound
      let diagnosis = merged.diagnosis.value?.pattern.rawValue ?? "unclassified"
      text = [
        "racecheck: \(merged.target) failed: \(merged.failure.value ?? "fail"), named \(diagnosis), "
          + "in scenario \(merged.scenarioIndex.value.map(String.init) ?? "?")"
          + (shard.map { " (shard \($0))" } ?? "") + "; \(explored), seed \(merged.seed)"
      ]
      if let replay = merged.replayCommand.value { text.append("Replay: \(replay)") }
      if let repro = merged.reproPath.value { text.append("Repro: \(repro)") }
      outcome = .failed(
        message: "\(merged.failure.value ?? "fail"): \(diagnosis)", type: diagnosis,
        details: text.joined(separator: "\n"))
    } else if merged.verdict == .inconclusive {
      status = .inconclusive
      let reasons = parts.compactMap { part in
        part.inconclusive.value.map { "shard \(part.shard.value?.description ?? "?"): \($0)" }
      }
      text = [
        "racecheck: \(merged.target) is inconclusive: \(reasons.joined(separator: "; ")).",
        "No failure was found in what ran (\(explored)), but the search was cut short, so this is not a pass.",
      ]
      outcome = .error(
        message: "inconclusive", type: "inconclusive", details: text.joined(separator: "\n"))
    } else {
      status = .success
      text = ["racecheck: \(merged.target) passed: \(explored), no failure (seed \(merged.seed))"]
      outcome = .passed
    }
    let junitCase = JUnitReport.TestCase(
      name: "\(merged.target) (seed \(merged.seed))", className: "racecheck.run",
      time: Duration(secondsOrZero: merged.seconds.value), outcome: outcome,
      output: status == .success ? text[0] : nil)
    return (
      status, merged, text,
      JUnitReport(name: "racecheck run", cases: [junitCase], timestamp: Date())
    )
  }
}
