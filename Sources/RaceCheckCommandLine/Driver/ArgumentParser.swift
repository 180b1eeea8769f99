import RaceCheckEngine

/// A command's arguments after parsing against its table: its positional arguments and the options given.
package struct ParsedArguments: Sendable {
  /// The command the arguments are for.
  package var command: CommandSpec
  /// The positional arguments, in order.
  package var positionals: [String] = []
  /// Each option given, by name, with its value; a flag's value is empty.
  package var options: [String: String] = [:]
  /// Whether `-h` or `--help` was given, which prints the command's help instead of running it.
  package var helpRequested: Bool = false

  /// The value given for `name`, or nil when the option was not given.
  ///
  /// Traps when the command's table has no such option, so that code and table cannot drift apart.
  func value(_ name: String) -> String? {
    precondition(
      command.option(named: name) != nil, "'\(command.name)' has no option '\(name)' in its table")
    return options[name]
  }

  /// Whether the flag `name` was given.
  func flag(_ name: String) -> Bool {
    value(name) != nil
  }

  /// The value given for `name`, or nil when it was not given or the command has no such option: for code that commands with different tables share (`run` and `explore`).
  func valueIfOffered(_ name: String) -> String? {
    command.option(named: name) == nil ? nil : value(name)
  }
}

/// Parses one command's arguments against its table, by hand, as the toolchain's own tools do.
///
/// Accepted forms: `--name value`, `--name=value`, flags, positional arguments anywhere, and `--`
/// to end options. `-h`/`--help` anywhere asks for help, however wrong the rest is.
enum ArgumentParser {
  static let helpOptions: Set<String> = ["-h", "--help"]

  static func parse(_ arguments: [String], for command: CommandSpec) throws(UsageError)
    -> ParsedArguments
  {
    var parsed = ParsedArguments(command: command)
    let beforeTerminator = arguments.prefix { $0 != "--" }
    if beforeTerminator.contains(where: helpOptions.contains) {
      parsed.helpRequested = true
      return parsed
    }
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !looksLikeOption(argument) {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      let (name, inlineValue) = split(argument)
      guard let option = command.option(named: name) else {
        throw .unknownOption(
          name, command: command.name,
          suggestion: Suggestion.closest(to: name, among: command.options.map(\.name) + ["--help"]))
      }
      guard parsed.options[name] == nil else { throw .repeatedOption(name, command: command.name) }
      guard let placeholder = option.placeholder else {
        guard inlineValue == nil else {
          throw .unexpectedValue(option: name, command: command.name)
        }
        parsed.options[name] = ""
        continue
      }
      if let inlineValue {
        parsed.options[name] = inlineValue
      } else if index < arguments.count, !looksLikeOption(arguments[index]) {
        parsed.options[name] = arguments[index]
        index += 1
      } else {
        throw .missingValue(option: name, placeholder: placeholder, command: command.name)
      }
    }
    try checkPositionals(parsed.positionals, for: command)
    return parsed
  }

  /// Whether an argument is an option rather than a value: it starts with `-` and is not a number,
  /// so that `--init -1` reaches the range check instead of reading as a missing value.
  static func looksLikeOption(_ argument: String) -> Bool {
    argument.hasPrefix("-") && argument.count > 1 && Double(argument) == nil
  }

  /// Splits `--name=value` into its name and value.
  private static func split(_ argument: String) -> (name: String, value: String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func checkPositionals(_ positionals: [String], for command: CommandSpec)
    throws(UsageError)
  {
    let required = command.arguments.filter { !$0.isOptional }
    if positionals.count < required.count {
      throw .missingArgument(required[positionals.count].name, command: command.name)
    }
    if positionals.count > command.arguments.count, command.arguments.last?.isVariadic != true {
      throw .unexpectedArgument(positionals[command.arguments.count], command: command.name)
    }
  }
}
