import RaceCheckEngine

/// An option in a command's table: its name, the placeholder of its value, and its help line.
///
/// The parser, the help text and the tests all read the same table, so help cannot drift from what is accepted.
package struct OptionSpec: Sendable, Hashable {
  /// The option as typed, such as `--seed`.
  package var name: String
  /// The placeholder of its value in help, such as `S`; nil for a flag that takes no value.
  package var placeholder: String?
  /// One line on what it does, with its default.
  package var help: String

  /// Creates an option that takes a value.
  package static func value(_ name: String, _ placeholder: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, placeholder: placeholder, help: help)
  }

  /// Creates a flag, an option that takes no value.
  package static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, placeholder: nil, help: help)
  }

  /// The option as help shows it: `--seed S`, or `--json` for a flag.
  var synopsis: String {
    placeholder.map { "\(name) \($0)" } ?? name
  }
}

/// A positional argument in a command's table.
package struct ArgumentSpec: Sendable, Hashable {
  /// Its name in help, such as `target`.
  package var name: String
  /// One line on what it is.
  package var help: String
  /// Whether the command runs without it.
  package var isOptional: Bool = false
  /// Whether it takes every positional argument from here on; only the last argument may.
  package var isVariadic: Bool = false

  /// The argument as usage shows it: `<target>`, `[<command>]` when optional, `<file>…` when variadic.
  var synopsis: String {
    let word = "<\(name)>" + (isVariadic ? "…" : "")
    return isOptional ? "[\(word)]" : word
  }
}

/// A command in the driver's table: its name, what it does, what it accepts and the code that runs it.
package struct CommandSpec: Sendable {
  /// The command as typed, such as `run`.
  package var name: String
  /// One sentence for the command list and the top of its help.
  package var abstract: String
  /// Its positional arguments, in order.
  package var arguments: [ArgumentSpec]
  /// Its options, in the order help lists them; `-h`/`--help` is accepted by every command and not listed here.
  package var options: [OptionSpec]
  /// Lines printed after the options in its help.
  package var discussion: [String] = []
  /// Runs the command once its arguments are parsed.
  let execute: @Sendable (ParsedArguments, CommandContext) throws(UsageError) -> ExitStatus

  /// The option named `name`, if the command has one.
  func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name }
  }
}
