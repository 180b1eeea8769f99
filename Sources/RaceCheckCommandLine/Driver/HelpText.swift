import RaceCheckEngine

/// The help screens, drawn from the command table so they list exactly what the parser accepts.
enum HelpText {
  /// The version `--version` prints.
  static let version = "0.1.0"

  /// The width usage lines wrap at.
  private static let width = 80

  /// `racecheck --help`: the commands and the program's own options.
  static func program(_ programName: String, commands: [CommandSpec]) -> String {
    var lines = [
      "OVERVIEW: \(programName) checks Swift concurrent types for linearizability.",
      "",
      "USAGE: \(programName) <command> [<options>]",
      "",
      "COMMANDS:",
    ]
    lines += rows(commands.map { ($0.name, $0.abstract) })
    lines += ["", "OPTIONS:"]
    lines += rows([("-h, --help", "Show this help."), ("--version", "Show the version.")])
    lines += ["", "See '\(programName) help <command>' for a command's arguments and options."]
    return lines.joined(separator: "\n")
  }

  /// `racecheck <command> --help`: the command's usage, arguments and every option in its table.
  static func command(_ command: CommandSpec, programName: String) -> String {
    var lines = ["OVERVIEW: \(command.abstract)", "", usage(command, programName: programName)]
    if !command.arguments.isEmpty {
      lines += ["", "ARGUMENTS:"]
      lines += rows(command.arguments.map { ("<\($0.name)>", $0.help) })
    }
    lines += ["", "OPTIONS:"]
    lines += rows(
      command.options.map { ($0.synopsis, $0.help) } + [("-h, --help", "Show this help.")])
    if !command.discussion.isEmpty {
      lines += [""] + command.discussion
    }
    return lines.joined(separator: "\n")
  }

  /// `USAGE: racecheck run <target> [--seed S] …`, wrapped under its first word.
  static func usage(_ command: CommandSpec, programName: String) -> String {
    let lead = "USAGE: \(programName) \(command.name)"
    let words = command.arguments.map(\.synopsis) + command.options.map { "[\($0.synopsis)]" }
    let indent = String(repeating: " ", count: lead.count + 1)
    var lines = [lead]
    for word in words {
      if lines[lines.count - 1].count + 1 + word.count > width {
        lines.append(indent + word)
      } else {
        lines[lines.count - 1] += " " + word
      }
    }
    return lines.joined(separator: "\n")
  }

  /// Two columns: names padded to a common width, then their help.
  private static func rows(_ items: [(String, String)]) -> [String] {
    let nameWidth = items.map(\.0.count).max() ?? 0
    return items.map { name, help in
      "  " + name + String(repeating: " ", count: nameWidth - name.count) + "   " + help
    }
  }
}
