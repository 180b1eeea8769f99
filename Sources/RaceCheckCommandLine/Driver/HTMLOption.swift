import RaceCheckEngine

/// `--html FILE` of `run`, `replay`, `check` and `demo`: the option as their tables list it, and the writing of the page.
enum HTMLOption {
  /// The option, with `shows`, what the command's page shows, ending its help line.
  static func spec(shows: String) -> OptionSpec {
    .value("--html", "FILE", "Also write one self-contained HTML page to FILE: \(shows).")
  }

  /// Writes the page `render` makes to the path `--html` names, if the command was given it, and returns the command's status after it.
  ///
  /// A page that cannot be written loses nothing else: the command says why on standard
  /// error, prints its report as usual, and exits as the check's result says, or 73
  /// (``ExitStatus/cannotWriteOutput``) when that would have been a success.
  static func write(
    _ parsed: ParsedArguments, status: ExitStatus, _ context: CommandContext,
    render: () -> String
  ) -> ExitStatus {
    guard let path = parsed.value("--html") else { return status }
    let written = context.writeReportFile(render(), to: path, what: "HTML report")
    if written { context.printError("\(context.programName): HTML report written to \(path)") }
    return status.afterWritingReportFile(succeeded: written)
  }
}
