import RaceCheckEngine

/// `racecheck bench recorder`: what `RecordedHistory.Recorder` costs per recorded call, with 1 and 2 threads recording.
enum RecorderBenchCommand {
  static let defaultRuns = 5
  static let defaultOperations = 1_000_000
  /// The threads of each configuration: one caller, and as many as this machine's two cores.
  static let threadCounts = [1, 2]

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let runs = try parsed.integer("--runs", atLeast: 1) ?? defaultRuns
    let operations = try parsed.integer("--operations", atLeast: 2) ?? defaultOperations
    let benchmark = RecorderBenchmark(operations: operations, rounds: runs)
    let statusLine = context.statusLine(for: parsed)
    var results: [BenchmarkResult] = []
    for threads in threadCounts {
      statusLine?.update("bench: recording with \(threads) thread\(threads == 1 ? "" : "s")")
      let figures: RecorderBenchmark.Figures
      do {
        figures = try benchmark.run(threads: threads)
      } catch {
        statusLine?.clear()
        context.printError("\(context.programName): \(error)")
        return .cannotWriteOutput
      }
      statusLine?.clear()
      let suffix = threads == 1 ? "/1-thread" : "/\(threads)-threads"
      for result in [
        BenchmarkResult(
          name: "recorder-caller-ns-per-operation" + suffix, value: figures.callerNanoseconds,
          unit: "ns"),
        BenchmarkResult(
          name: "recorder-caller-wall-ns-per-operation" + suffix,
          value: figures.callerWallNanoseconds, unit: "ns"),
        BenchmarkResult(
          name: "recorder-total-ns-per-operation" + suffix, value: figures.totalNanoseconds,
          unit: "ns"),
        BenchmarkResult(
          name: "recorder-operations-per-second" + suffix, value: figures.operationsPerSecond,
          unit: "operations/s"),
      ] {
        context.printError(
          "bench: \(result.name) \(PlainNumber.text(rounded(result.value))) \(result.unit)")
        results.append(
          BenchmarkResult(name: result.name, value: rounded(result.value), unit: result.unit))
      }
    }
    statusLine?.update("bench: reading the clock")
    let clock = BenchmarkResult(
      name: "recorder-clock-ns-per-reading", value: rounded(benchmark.clockReadingNanoseconds()),
      unit: "ns")
    statusLine?.clear()
    context.printError("bench: \(clock.name) \(PlainNumber.text(clock.value)) \(clock.unit)")
    results.append(clock)
    if let status = BenchCommand.printResults(results, parsed, context) { return status }
    context.print(
      "Each figure is the median of \(runs) rounds of \(benchmark.operations) kv puts of two short strings "
        + "with no result, each thread in bursts of \(RecorderBenchmark.burst) calls that it writes "
        + "before the next. 'caller' is a recording thread's CPU time (and wall time) per call "
        + "in its bursts, two readings of the monotonic clock included ('clock', the cost of one); "
        + "'total' is the process's CPU time per call until the file is synced, encoding and "
        + "writing included.")
    return .success
  }

  /// A figure to one decimal, as the table and JSON print it.
  private static func rounded(_ value: Double) -> Double {
    (value * 10).rounded() / 10
  }
}
