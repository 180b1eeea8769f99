import Foundation
import RaceCheckEngine

/// Runs racecheck's command line over a program's own targets.
///
/// A package can ship its own checker executable whose `main.swift` is one call:
///
/// ```swift
/// import RaceCheck
/// CommandLineDriver.main(targets: [Target(cacheSpec, summary: "the locked cache", expectation: .pass)])
/// ```
///
/// The commands are `list`, `run`, `explore`, `replay`, `check`, `workload`, `demo`, `merge`,
/// `bench` and `help`; `ExitStatus` documents what each exit status means.
public struct CommandLineDriver: Sendable {
  /// The targets the commands can name.
  package var targets: [Target]
  /// The workloads `workload` can name.
  package var workloads: [WorkloadTarget] = []
  /// The name help, errors, hints and replay commands show, such as `racecheck`.
  ///
  /// By default, the running executable's own name (``runningProgramName``), so that the
  /// commands a program prints are ones its user can type.
  package var programName: String
  /// What `bench` measures, or nil when the program has no benchmarks.
  package var benchmarks: BenchmarkPlan?
  /// The program `run` and `demo` start to check a target in isolation, or nil to check in this process.
  ///
  /// ``main(targets:programName:benchmarks:)`` sets it to the running program, which then serves as
  /// its own worker; a driver made with ``init(targets:programName:benchmarks:)`` checks in process.
  package var workerExecutable: String?

  /// Creates a driver over `targets`, whose commands name the program `programName`.
  package init(
    targets: [Target], programName: String = runningProgramName,
    benchmarks: BenchmarkPlan? = nil
  ) {
    self.targets = targets
    self.programName = programName
    self.benchmarks = benchmarks
  }

  /// Runs one command line (arguments without the program name) and returns its `ExitStatus` as a number.
  ///
  /// ```swift
  /// let status = CommandLineDriver(targets: targets).run(["run", "LockArray", "--seed", "0x2A"])
  /// ```
  package func run(
    _ arguments: [String], output: CommandOutput = .standardOutput,
    errors: CommandOutput = .standardError
  ) -> Int32 {
    let context = CommandContext(driver: self, output: output, errors: errors)
    do {
      return try dispatch(arguments, context).rawValue
    } catch {
      // Every usage error is one line saying what is wrong, then one saying where help is.
      context.printError("\(programName): \(error)")
      context.printError(error.hint(programName: programName))
      return ExitStatus.usage.rawValue
    }
  }

  /// Runs `CommandLine.arguments` over `targets` and exits with the status; the commands it prints name `programName`.
  ///
  /// ```swift
  /// CommandLineDriver.main(targets: Specs.targets, programName: "check-my-types")
  /// ```
  public static func main(targets: [Target], programName: String = runningProgramName) -> Never {
    main(targets: targets, workloads: [], programName: programName, benchmarks: nil)
  }

  /// Runs `CommandLine.arguments` over `targets` and `workloads` and exits with the status.
  ///
  /// ```swift
  /// CommandLineDriver.main(targets: Specs.targets, workloads: [cacheWorkload])
  /// ```
  public static func main(
    targets: [Target], workloads: [WorkloadTarget], programName: String = runningProgramName
  ) -> Never {
    main(targets: targets, workloads: workloads, programName: programName, benchmarks: nil)
  }

  /// Runs `CommandLine.arguments` and exits with the status, with racecheck's own benchmarks.
  package static func main(
    targets: [Target], workloads: [WorkloadTarget] = [], programName: String = runningProgramName,
    benchmarks: BenchmarkPlan?
  ) -> Never {
    // A worker started by an isolated check runs its job and exits here.
    IsolatedWorker.runIfRequested(targets: targets)
    var driver = CommandLineDriver(
      targets: targets, programName: programName, benchmarks: benchmarks)
    driver.workloads = workloads
    driver.workerExecutable = WorkerCommand.currentExecutable
    let arguments = Array(CommandLine.arguments.dropFirst())
    // The main thread serves the main queue meanwhile, so that `DispatchQueue.main` and
    // `@MainActor` code under check run as in an app.
    exit(MainQueueService.serve { [driver] in driver.run(arguments) }.value)
  }

  /// The running executable's name: the last path component of `CommandLine.arguments[0]`, or `racecheck`.
  public static var runningProgramName: String {
    programName(invokedAs: CommandLine.arguments.first ?? "")
  }

  /// The program name of an executable started as `argument0`, such as `.build/debug/check-my-types`.
  static func programName(invokedAs argument0: String) -> String {
    argument0.split(separator: "/").last.map(String.init) ?? "racecheck"
  }

  /// The version line: racecheck's version, under the embedding program's name when it has its own.
  var versionLine: String {
    programName == "racecheck"
      ? "racecheck \(HelpText.version)" : "\(programName) (racecheck \(HelpText.version))"
  }

  private func dispatch(_ arguments: [String], _ context: CommandContext) throws(UsageError)
    -> ExitStatus
  {
    guard let first = arguments.first else {
      context.printError(HelpText.program(programName, commands: Self.commands))
      return .usage
    }
    if ArgumentParser.helpOptions.contains(first) {
      context.print(HelpText.program(programName, commands: Self.commands))
      return .success
    }
    if first == "--version" {
      if arguments.count > 1 { throw .unexpectedArgument(arguments[1], command: nil) }
      context.print(versionLine)
      return .success
    }
    if ArgumentParser.looksLikeOption(first) {
      throw .unknownOption(
        first, command: nil,
        suggestion: Suggestion.closest(to: first, among: ["--help", "--version"]))
    }
    guard let command = Self.command(named: first) else {
      throw .unknownCommand(
        first, suggestion: Suggestion.closest(to: first, among: Self.commands.map(\.name)))
    }
    let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command)
    if parsed.helpRequested {
      context.print(HelpText.command(command, programName: programName))
      return .success
    }
    return try command.execute(parsed, context)
  }
}
