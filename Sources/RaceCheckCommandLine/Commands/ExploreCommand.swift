import RaceCheckEngine

/// `racecheck explore <target>`: explores a body's schedules (an ``Exploration`` target) until one fails, as `run` checks a spec.
enum ExploreCommand {
  /// The options of `run` that a body to explore has (no shape, scenario or stress budget, no history file, and schedule mode always), and `--schedule`.
  private static let options =
    RunCommand.spec.options.filter { option in
      ![
        "--threads", "--ops", "--init", "--post", "--scenarios", "--invocations",
        "--first-scenario", "--history", "--mode",
      ].contains(option.name)
    } + [ScheduleOptions.scheduleOption]

  static let spec = CommandSpec(
    name: "explore",
    abstract:
      "Explore a body's schedules under the controlled scheduler and report the first that fails.",
    arguments: [
      ArgumentSpec(name: "target", help: "The body to explore, as 'list' names it.")
    ],
    options: options,
    discussion: [
      "A body to explore (Exploration in the library) runs once per schedule, in schedule mode:",
      "a random walk of \(ScheduleSettings.exploration.schedules) schedules unless",
      "--strategy and --schedules say otherwise. A schedule fails on an expectation that fails,",
      "an error the body throws, a crash, a deadlock, a data race or a schedule that never ends;",
      "the report shows it shrunk to the fewest preemptions that fail alike. With --strategy dpor",
      "a pass says that every interleaving of the body ran, or names the C functions whose plain",
      "memory it could not see (build them with -fsanitize-coverage=func,trace-pc,trace-loads,trace-stores);",
      "a budget that ends first is inconclusive.",
      "A failure's replay line gives its schedule with --schedule, which runs it alone, exactly;",
      "without it, the same seed finds and shrinks the same schedule again.",
      "Exit statuses are those of 'run'.",
    ],
    execute: { parsed, context throws(UsageError) in try RunCommand.run(parsed, context) })
}
