import Foundation
import RaceCheckEngine

/// `racecheck bench checker <folder>`: the history checker's time and memory on every history of a folder.
enum CheckerBenchCommand {
  static let defaultRuns = 5
  static let defaultSeed: UInt64 = 15

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let runs = try parsed.integer("--runs", atLeast: 1) ?? defaultRuns
    // No folder of histories ships with racecheck, so none can be the default.
    guard parsed.positionals.count > 1 else {
      throw .missingArgument("folder", command: "bench checker")
    }
    let folder = parsed.positionals[1]
    if parsed.flag("--generate") { return try generate(into: folder, parsed, context) }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      context.printError("\(context.programName): \(folder): no such folder of histories")
      return .dataError
    }
    var benchmark = CheckerBenchmark(
      folder: folder, runs: runs,
      executable: context.driver.workerExecutable ?? WorkerCommand.currentExecutable)
    benchmark.partitions = !parsed.flag("--no-partitions")
    let results = benchmark.run { result in
      context.printError(
        "bench: \(result.file) \(result.verdict) \(PlainNumber.text(result.milliseconds)) ms"
          + (result.peakMegabytes.map { " \(PlainNumber.text($0)) MB" } ?? ""))
    }
    let totals = CheckerBenchTotals(results)
    if parsed.flag("--json") {
      return context.printJSON(CheckerBenchJSON(results: results, totals: totals), status: .success)
    }
    var rows = [["file", "operations", "verdict", "median ms", "peak MB"]]
    rows += results.map { result in
      [
        String(result.file.dropFirst(folder.count + 1)), String(result.operations), result.verdict,
        PlainNumber.text(result.milliseconds),
        result.peakMegabytes.map(PlainNumber.text) ?? "-",
      ]
    }
    TextTable.render(rows).forEach(context.print)
    context.print("")
    var totalRows = [["folder", "files", "total ms", "slowest ms", "peak MB"]]
    totalRows += totals.categories.map { category in
      [
        category.name, String(category.files), PlainNumber.text(category.milliseconds),
        PlainNumber.text(category.slowestMilliseconds),
        category.peakMegabytes.map(PlainNumber.text) ?? "-",
      ]
    }
    totalRows.append([
      "all", String(totals.files), PlainNumber.text(totals.milliseconds), "", "",
    ])
    TextTable.render(totalRows).forEach(context.print)
    context.print(
      "Times are medians of \(runs) checks of each file, reading excluded; the machine's other load counts."
    )
    return .success
  }
}

extension CheckerBenchCommand {
  /// Writes ``GeneratedHistory/standardSet(seed:)`` under `folder`, one line per file on standard error.
  static func generate(into folder: String, _ parsed: ParsedArguments, _ context: CommandContext)
    throws(UsageError) -> ExitStatus
  {
    let seed = try parsed.integer("--seed", atLeast: 0).map(UInt64.init) ?? defaultSeed
    for history in GeneratedHistory.standardSet(seed: seed) {
      let path = folder + "/" + history.path
      let directory = (path as NSString).deletingLastPathComponent
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
        try Data(history.text().utf8).write(to: URL(fileURLWithPath: path))
      } catch {
        context.printError("\(context.programName): \(path): \(error.localizedDescription)")
        return .dataError
      }
      context.printError(
        "bench: wrote \(path) (\(history.operations) operations, \(history.expectedVerdict.rawValue))"
      )
    }
    return .success
  }
}

/// The totals of `bench checker`, per folder and overall; skipped files are left out.
struct CheckerBenchTotals: Encodable {
  struct Category: Encodable {
    var name: String
    var files: Int
    var milliseconds: Double
    var slowestMilliseconds: Double
    var peakMegabytes: Double?
  }

  var categories: [Category]
  var files: Int
  var milliseconds: Double

  init(_ results: [CheckerBenchmark.FileResult]) {
    let measured = results.filter { !$0.verdict.hasPrefix("skipped") }
    let names = Array(Set(measured.map(\.category))).sorted()
    categories = names.map { name in
      let members = measured.filter { $0.category == name }
      return Category(
        name: name, files: members.count,
        milliseconds: Self.rounded(members.reduce(0) { $0 + $1.milliseconds }),
        slowestMilliseconds: members.map(\.milliseconds).max() ?? 0,
        peakMegabytes: members.compactMap(\.peakMegabytes).max())
    }
    files = measured.count
    milliseconds = Self.rounded(measured.reduce(0) { $0 + $1.milliseconds })
  }

  private static func rounded(_ value: Double) -> Double {
    (value * 1000).rounded() / 1000
  }
}

/// `racecheck bench checker --json`: every file's figures and the totals.
struct CheckerBenchJSON: Encodable {
  var results: [CheckerBenchmark.FileResult]
  var totals: CheckerBenchTotals
}
