import Foundation
import RaceCheckEngine

/// `racecheck check <file>`: checks a recorded history — a racecheck history file or a Jepsen one — for linearizability.
enum CheckCommand {
  static let spec = CommandSpec(
    name: "check",
    abstract:
      "Check a recorded history file (racecheck, Jepsen EDN or Jepsen log) for linearizability.",
    arguments: [
      ArgumentSpec(
        name: "file", help: "The history: a racecheck history file, or Jepsen's with --format.")
    ],
    options: [
      .value(
        "--format", "F",
        "json (the racecheck history file), jepsen (EDN op maps) or jepsen-log (default: json)."),
      .value(
        "--model", "M",
        "The model: \(BuiltInModels.names.joined(separator: ", ")) (default: the file's; kv for jepsen, cas-register for jepsen-log)."
      ),
      .value(
        "--initial", "STATE",
        "The model's initial state as JSON (0, '\"x\"', '[1, 2]', '{\"k\": \"v\"}'); it wins over the file's own, and null is the model's default (default: the file's, else the model's: null for registers, 0, [] or {})."
      ),
      .value(
        "--nil-read", "MEANING",
        "What a register or cas-register read of nil means: value (the register held nil; the default) or unknown (it fits any state, as in Knossos)."
      ),
      .value("--timeout", "SECONDS", "Give up with 'unknown' after this long (default: no limit)."),
      .flag("--all-partitions", "Finish every key's check after one fails, instead of stopping."),
      .flag("--no-partitions", "Check the history whole instead of one key at a time."),
      HTMLOption.spec(
        shows: "each process a lane, the failing window, the longest linearization and the "
          + "operations that cannot be placed marked"),
      .flag(
        "--witness",
        "For a linearizable history, also print the order the search found (in --json: each part's 'witness')."
      ),
      .flag("--json", "Print one JSON document instead of the text."),
      .value("--junit", "FILE", "Write the verdict to FILE as JUnit XML, for CI."),
      .quiet,
      .flag(
        "--stats", "Also print the check's time and the process's peak memory on standard error."),
    ],
    discussion: [
      "Histories of kv and dictionary are checked one key at a time, in parallel, when every",
      "operation names one key. A register or cas-register starts at null (nil), as Knossos's",
      "do unless given a value (its tests give 0: --initial 0), and a read that returned nil",
      "says the register held nil; --nil-read unknown reads it as Knossos does, as a read of",
      "unknown value that fits any state. Operations are cited by their lines in the file.",
      "Exits 0 when the history is linearizable, 1 when it is not, 75 when the time ran out",
      "first, 64 when an option (--initial, --nil-read, …) is wrong for the history, 65 when",
      "the file is rejected (the message names the operation or line and the problem), 73",
      "when it is linearizable but the --junit or --html file could not be written, and 130",
      "or 143 after SIGINT or SIGTERM, once what was decided so far is printed.",
    ],
    execute: { parsed, context throws(UsageError) in try run(parsed, context) })

  /// The start of the `--stats` line, which `bench checker` reads back from its children.
  static let statsPrefix = "stats:"

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let path = parsed.positionals[0]
    var format = RecordedHistory.Format.json
    if let text = parsed.value("--format") {
      guard let known = RecordedHistory.Format(rawValue: text) else {
        throw .invalidValue(
          option: "--format", value: text, expected: "json, jepsen or jepsen-log", command: "check")
      }
      format = known
    }
    let model = parsed.value("--model")
    if let model, !BuiltInModels.names.contains(model) {
      throw .invalidValue(
        option: "--model", value: model,
        expected: "one of " + BuiltInModels.names.joined(separator: ", "), command: "check")
    }
    let initial = try initialState(parsed)
    let nilReads = try nilReadMeaning(parsed)
    let timeout = try parsed.duration("--timeout")
    let interruption = Interruption.watch()
    defer { interruption.stop() }
    let statusLine = context.statusLine(for: parsed)
    defer { statusLine?.clear() }
    var history: RecordedHistory
    do throws(HistoryInputError) {
      statusLine?.update("\(path): reading")
      history = try RecordedHistory(contentsOf: path, format: format, model: model)
    } catch {
      statusLine?.clear()
      context.printError("\(context.programName): \(path): \(error)")
      return .dataError
    }
    // Only now is the model known when the file names it.
    if let initial {
      // The flag wins over the file's own `initial`; `null`, as in the file, is the model's default.
      if !initial.value.isNull { try check(initial, against: history.model) }
      history.initial = initial.value.isNull ? Value?.none : .some(initial.value)
    }
    if nilReads == .unknown, !NilReadMeaning.models.contains(history.model) {
      throw .invalidValue(
        option: "--nil-read", value: NilReadMeaning.unknown.rawValue,
        expected: "value, since only reads of the "
          + "\(NilReadMeaning.models.joined(separator: " and ")) models can be unknown "
          + "and this history's model is \(history.model)",
        command: "check")
    }
    let verdict: HistoryVerdict
    do throws(HistoryInputError) {
      statusLine?.update("\(path): checking \(history.operations.count) operations")
      var checker = HistoryChecker(
        timeout: timeout, partitions: !parsed.flag("--no-partitions"),
        checksAllPartitions: parsed.flag("--all-partitions"))
      checker.nilReads = nilReads
      checker.isInterrupted = { interruption.signal != nil }
      do {
        verdict = try checker.check(history)
      } catch {
        throw Self.locating(error, in: history, format: format)
      }
    } catch {
      statusLine?.clear()
      context.printError("\(context.programName): \(path): \(error)")
      return .dataError
    }
    if parsed.flag("--stats") {
      let megabytes = ProcessMemory.peakResidentBytes().map {
        PlainNumber.text((Double($0) / 1_048_576 * 10).rounded() / 10)
      }
      context.printError(
        "\(statsPrefix) seconds \(PlainNumber.text(verdict.elapsed.seconds)) peak-memory-megabytes \(megabytes ?? "unknown")"
      )
    }
    // A signal that came once the verdict was in changed nothing; one that cut the search short did.
    let interruptedBy = verdict.verdict == .unknown ? interruption.signal : nil
    let text = HistoryVerdictText(
      file: path, history: history, verdict: verdict, interruptedBy: interruptedBy,
      showsWitness: parsed.flag("--witness"))
    let output = HistoryVerdictOutput(
      name: path, history: history, verdict: verdict, text: text.lines,
      junitClass: "racecheck.check", showsWitness: parsed.flag("--witness"))
    var status = output.status
    if let interruptedBy { status = .interrupted(by: interruptedBy) }
    statusLine?.clear()
    return output.emit(parsed, context, status: status) {
      CheckJSON(file: path, history: history, verdict, witness: parsed.flag("--witness"))
    }
  }

  /// The `--initial` state as the user wrote it and as JSON; nil when the option is absent.
  private static func initialState(_ parsed: ParsedArguments) throws(UsageError)
    -> (text: String, value: Value)?
  {
    guard let text = parsed.value("--initial") else { return nil }
    guard let value = Value.parsingJSON(text) else {
      throw .invalidValue(
        option: "--initial", value: text,
        expected: "the model's state as JSON, such as 0, \"x\", [1, 2] or {\"k\": \"v\"}",
        command: "check")
    }
    return (text, value)
  }

  /// The `--nil-read` meaning; `value` when the option is absent.
  private static func nilReadMeaning(_ parsed: ParsedArguments) throws(UsageError)
    -> NilReadMeaning
  {
    guard let text = parsed.value("--nil-read") else { return .value }
    guard let meaning = NilReadMeaning(rawValue: text) else {
      throw .invalidValue(
        option: "--nil-read", value: text, expected: "value or unknown", command: "check")
    }
    return meaning
  }

  /// Rejects an `--initial` state that does not have the shape of `model`'s states.
  private static func check(_ initial: (text: String, value: Value), against model: String)
    throws(UsageError)
  {
    guard let type = BuiltInModels.model(named: model) else { return }
    do {
      _ = try type.init(state: initial.value)
    } catch {
      let expected: String
      if case .wrongState(_, let shape, _) = error {
        expected = "\(shape), the \(model) model's state"
      } else {
        expected = "the \(model) model's state: \(error)"
      }
      throw .invalidValue(
        option: "--initial", value: initial.text, expected: expected, command: "check")
    }
  }

  /// A model's rejection of a Jepsen history names the line of the invocation, not an index nobody sees.
  private static func locating(
    _ error: HistoryFileError, in history: RecordedHistory, format: RecordedHistory.Format
  ) -> HistoryInputError {
    guard format != .json, case .operation(let index, _, let problem) = error else {
      return .model(error)
    }
    let operation = history.operations[index]
    return .jepsen(
      .unsupportedOperation(
        line: Int(operation.call), function: operation.name, model: history.model,
        problem: problem.description))
  }
}
