import RaceCheckEngine

extension CommandLineDriver {
  /// Every command, in the order help lists them; the parser, the help and the tests all read this table.
  package static let commands: [CommandSpec] = [
    ListCommand.spec,
    RunCommand.spec,
    ExploreCommand.spec,
    ReplayCommand.spec,
    CheckCommand.spec,
    WorkloadCommand.spec,
    DemoCommand.spec,
    MergeCommand.spec,
    BenchCommand.spec,
    HelpCommand.spec,
  ]

  /// The command named `name`, if there is one.
  package static func command(named name: String) -> CommandSpec? {
    commands.first { $0.name == name }
  }
}
