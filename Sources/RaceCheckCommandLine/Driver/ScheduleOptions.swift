import RaceCheckEngine

/// The options that choose schedule mode and its strategy, shared by `run` and `demo`.
enum ScheduleOptions {
  /// The options, in the order help lists them.
  static let options: [OptionSpec] = [
    .value(
      "--mode", "MODE",
      "stress (real threads, the default) or schedule (one thread at a time, deterministic; "
        + "--strategy, --depth, --preemptions and --schedules choose it too)."
    ),
    .value(
      "--strategy", "S",
      "Schedule mode: random (default), pct, exhaustive (preemption-bounded) or dpor "
        + "(every interleaving, one per class of equivalent ones)."
    ),
    .value("--depth", "N", "Schedule mode: PCT's bug depth (default: 3)."),
    .value(
      "--preemptions", "N", "Schedule mode: exhaustive search's preemption bound (default: 2)."),
    .value(
      "--schedules", "N",
      "Schedule mode: schedules per scenario, at most; random and PCT give the first "
        + "scenarios 10, 20, 30… (default: 50)."
    ),
  ]

  /// The schedule settings the options describe, or nil for stress mode; `exploring` names a body to explore, which runs in schedule mode whatever `--mode` says.
  static func settings(from parsed: ParsedArguments, exploring: String? = nil) throws(UsageError)
    -> ScheduleSettings?
  {
    // An option of schedule mode alone asks for it: `--strategy dpor` is never ignored.
    let scheduleOnly = ["--strategy", "--depth", "--preemptions", "--schedules"].first {
      parsed.valueIfOffered($0) != nil
    }
    let mode =
      parsed.valueIfOffered("--mode")
      ?? (exploring == nil && scheduleOnly == nil ? "stress" : "schedule")
    guard mode == "schedule" else {
      guard mode == "stress" else {
        throw .invalidValue(
          option: "--mode", value: mode, expected: "stress or schedule",
          command: parsed.command.name)
      }
      if let exploring {
        throw .explorationInStressMode(exploring, command: parsed.command.name)
      }
      if let scheduleOnly {
        throw .conflictingOptions("--mode stress", scheduleOnly, command: parsed.command.name)
      }
      return nil
    }
    var settings = exploring == nil ? ScheduleSettings() : .exploration
    if let text = parsed.value("--strategy") {
      guard let strategy = ScheduleSettings.Strategy(rawValue: text) else {
        throw .invalidValue(
          option: "--strategy", value: text, expected: "random, pct, exhaustive or dpor",
          command: parsed.command.name)
      }
      settings.strategy = strategy
    }
    settings.depth = try parsed.integer("--depth", atLeast: 1) ?? settings.depth
    settings.preemptionBound =
      try parsed.integer("--preemptions", atLeast: 0) ?? settings.preemptionBound
    settings.schedules =
      try parsed.integer("--schedules", atLeast: 1) ?? settings.schedules
    if let text = parsed.valueIfOffered(scheduleOption.name) {
      do throws(ScheduleChoices.ParseError) {
        settings.replayedSchedule = try ScheduleChoices(parsing: text)
      } catch {
        throw .invalidValue(
          option: scheduleOption.name, value: text,
          expected: "a schedule, such as 0*4,2*5,0 (\(error))", command: parsed.command.name)
      }
    }
    return settings
  }

  /// `explore`'s option that runs one schedule instead of the search, as `RACECHECK_SCHEDULE` does in a test.
  static let scheduleOption = OptionSpec.value(
    "--schedule", "TEXT",
    "Run this one schedule, once, instead of the search: the thread chosen at each scheduling "
      + "point, run-length, as a report's Schedule: line writes it (0*4,2*5,0). A schedule that "
      + "passes, or that the code leaves, is inconclusive.")

  /// The words that select `settings` again on a replay command line; the defaults are left out, and for a body to explore (`exploring`) the mode too.
  static func words(_ settings: ScheduleSettings?, exploring: Bool = false) -> [String] {
    guard let settings else { return [] }
    let defaults = exploring ? ScheduleSettings.exploration : ScheduleSettings()
    var words = exploring ? [] : ["--mode", "schedule"]
    if settings.strategy != defaults.strategy {
      words += ["--strategy", settings.strategy.rawValue]
    }
    if settings.strategy == .pct, settings.depth != defaults.depth {
      words += ["--depth", String(settings.depth)]
    }
    if settings.strategy == .exhaustive, settings.preemptionBound != defaults.preemptionBound {
      words += ["--preemptions", String(settings.preemptionBound)]
    }
    if settings.schedules != defaults.schedules {
      words += ["--schedules", String(settings.schedules)]
    }
    if exploring, let schedule = settings.replayedSchedule, !schedule.choices.isEmpty {
      words += [scheduleOption.name, schedule.description]
    }
    return words
  }
}
