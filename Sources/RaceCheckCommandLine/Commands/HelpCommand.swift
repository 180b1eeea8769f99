import RaceCheckEngine

/// `racecheck help [command]`: the program's help, or one command's.
enum HelpCommand {
  static let spec = CommandSpec(
    name: "help",
    abstract: "Show help for the program or for one command.",
    arguments: [ArgumentSpec(name: "command", help: "The command to explain.", isOptional: true)],
    options: [],
    execute: { parsed, context throws(UsageError) in try run(parsed, context) })

  static func run(_ parsed: ParsedArguments, _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    let commands = CommandLineDriver.commands
    guard let name = parsed.positionals.first else {
      context.print(HelpText.program(context.programName, commands: commands))
      return .success
    }
    guard let command = CommandLineDriver.command(named: name) else {
      throw .unknownCommand(
        name, suggestion: Suggestion.closest(to: name, among: commands.map(\.name)))
    }
    context.print(HelpText.command(command, programName: context.programName))
    return .success
  }
}
