import RaceCheckEngine

/// `racecheck bench`: measures the driver's benchmark plan and prints one figure per line.
enum BenchCommand {
  static let defaultDuration: Duration = .seconds(1)

  static let spec = CommandSpec(
    name: "bench",
    abstract:
      "Measure stress throughput and the time to first failure, the history checker, or the recorder.",
    arguments: [
      ArgumentSpec(
        name: "suite",
        help:
          "'checker' to time the history checker, 'dpor' to count partial-order reduction's schedules, 'recorder' to time the history recorder, instead of the stress runner.",
        isOptional: true),
      ArgumentSpec(
        name: "folder",
        help:
          "For 'checker': the folder of history files to check, such as Porcupine's test_data (required).",
        isOptional: true),
    ],
    options: [
      .value(
        "--seconds", "N",
        "How long each throughput figure is measured (default: \(PlainNumber.text(defaultDuration)))."
      ),
      .value(
        "--runs", "N",
        "For 'checker': checks per file, the median reported (default: \(CheckerBenchCommand.defaultRuns)); for 'recorder': rounds of each figure (default: \(RecorderBenchCommand.defaultRuns))."
      ),
      .value(
        "--operations", "N",
        "For 'recorder': the calls recorded in each round, over all threads (default: \(RecorderBenchCommand.defaultOperations))."
      ),
      .flag(
        "--no-partitions",
        "For 'checker': check each history whole instead of one key at a time."),
      .flag(
        "--generate",
        "For 'checker': write the generated histories (kv, sequential, cas) into the folder and stop."
      ),
      .value(
        "--seed", "N",
        "For 'checker --generate': the seed of the generated histories (default: \(CheckerBenchCommand.defaultSeed))."
      ),
      .value(
        "--scenarios", "N",
        "For 'dpor': the 2 × 3 scenarios of each target (default: \(ReductionBenchCommand.defaultScenarios)); a body to explore has one."
      ),
      .value(
        "--targets", "T1,T2,…",
        "For 'dpor': only these targets, as 'list' names them (default: every row the benchmark plan names)."
      ),
      .value(
        "--schedules", "N",
        "For 'dpor': the cap of each search, in schedules per scenario (default: \(ReductionBenchCommand.defaultCap))."
      ),
      .value(
        "--factor", "N",
        "For 'dpor': the unbounded search of a scenario stops past N times the reduction's schedules, if that is above the cap (default: \(ReductionBenchCommand.defaultFactor))."
      ),
      .flag(
        "--json",
        "Print {\"results\":[…]} (for 'checker', also {\"totals\":{…}}) instead of the table."
      ),
      .quiet,
    ],
    discussion: [
      "Each figure is also written to standard error as it is measured.",
      "'bench checker' checks every history under the folder (.json history files, .log Jepsen",
      "logs, .txt/.edn Jepsen EDN) and prints each file's median time and peak memory, then totals.",
      "'bench checker FOLDER --generate' writes, from a seed, histories Porcupine's test parsers also",
      "read: kv/ (10, 100, 1000 keys; 1k, 10k, 100k operations), sequential/ (10k to 1M operations,",
      "no overlap) and cas/ (etcd-log registers, 10 and 20 clients, legal, with one impossible read,",
      "and with one stale read up to 100k operations).",
      "'bench dpor' explores every interleaving of each catalogue row's first 2 × 3 scenarios twice,",
      "by partial-order reduction and by depth-first search with no preemption bound, and prints the",
      "schedules each ran, each one's verdict and whether they agree; it exits 1 when any disagree.",
      "The depth-first search stops past --factor times the reduction's schedules: its count and the",
      "ratio are then lower bounds, printed after '>'.",
      "'bench recorder' records kv puts of two short strings with RecordedHistory.Recorder, from 1",
      "and then 2 threads, to a file in the temporary folder, each thread in bursts of 4096 calls",
      "that it writes to the file before the next, and prints per call the recording thread's CPU and",
      "wall nanoseconds in its bursts (the buffer only), the process's CPU nanoseconds until the",
      "file is synced (encoding and writing included), and the calls recorded per second.",
    ],
    execute: { parsed, context throws(UsageError) in try run(parsed, context) })

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    if let suite = parsed.positionals.first {
      switch suite {
      case "checker": return try CheckerBenchCommand.run(parsed, context)
      case "dpor": return try ReductionBenchCommand.run(parsed, context)
      case "recorder": return try RecorderBenchCommand.run(parsed, context)
      default:
        throw .invalidValue(
          option: "<suite>", value: suite, expected: "checker, dpor or recorder", command: "bench")
      }
    }
    let duration = try parsed.duration("--seconds") ?? defaultDuration
    guard let plan = context.driver.benchmarks else { throw .noBenchmarkPlan }
    let results: [BenchmarkResult]
    let statusLine = context.statusLine(for: parsed)
    statusLine?.update("bench: measuring the first figure")
    do {
      var measured = 0
      results = try Benchmarks.run(
        plan, targets: context.driver.targets, duration: duration,
        workerExecutable: context.driver.workerExecutable
      ) {
        result in
        measured += 1
        statusLine?.clear()
        context.printError("bench: \(result.name) \(PlainNumber.text(result.value)) \(result.unit)")
        statusLine?.update("bench: \(measured) figures measured, measuring the next")
      }
      statusLine?.clear()
    } catch {
      statusLine?.clear()
      // The plan comes from the program, not the user, so a plan that names no target is the program's bug.
      context.printError("\(context.programName): \(error)")
      return .internalError
    }
    return printResults(results, parsed, context) ?? .success
  }

  /// Prints bench figures as `--json` asks, or as a table; the status of a JSON document, nil after the table.
  static func printResults(
    _ results: [BenchmarkResult], _ parsed: ParsedArguments, _ context: CommandContext
  ) -> ExitStatus? {
    if parsed.flag("--json") {
      let document = BenchJSON(
        results: results.map {
          BenchJSON.Result(name: $0.name, value: JSONNumber($0.value), unit: $0.unit)
        })
      return context.printJSON(document, status: .success)
    }
    let rows =
      [["name", "value", "unit"]] + results.map { [$0.name, PlainNumber.text($0.value), $0.unit] }
    TextTable.render(rows).forEach(context.print)
    return nil
  }
}
