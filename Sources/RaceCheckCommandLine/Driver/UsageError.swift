import RaceCheckEngine

/// A command line racecheck cannot run, with the one line that tells the user what to fix.
///
/// The driver prints it as `racecheck: <description>`, then a line naming the help to read, and exits 64.
package enum UsageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The first argument names no command.
  case unknownCommand(String, suggestion: String?)
  /// An option the command does not have; `command` is nil before any command.
  case unknownOption(String, command: String?, suggestion: String?)
  /// An option that needs a value came last or was followed by another option.
  case missingValue(option: String, placeholder: String, command: String)
  /// A flag was given a value with `=`.
  case unexpectedValue(option: String, command: String)
  /// A value that does not parse or is out of range; `expected` says what would do.
  case invalidValue(option: String, value: String, expected: String, command: String)
  /// The same option twice.
  case repeatedOption(String, command: String)
  /// Two options that cannot be used together.
  case conflictingOptions(String, String, command: String)
  /// A required positional argument is missing.
  case missingArgument(String, command: String)
  /// A positional argument the command does not take.
  case unexpectedArgument(String, command: String?)
  /// A target the program does not have.
  case unknownTarget(String, known: [String], suggestion: String?)
  /// `workload` names no workload target of this program.
  case unknownWorkload(String, known: [String], suggestion: String?)
  /// `explore` of a target that is a spec, not a body to explore.
  case notAnExploration(String)
  /// `--mode stress` for a body to explore, which runs only under the scheduler.
  case explorationInStressMode(String, command: String)
  /// `bench` in a program that was given no benchmark plan.
  case noBenchmarkPlan
  /// `demo` in a program none of whose targets has an expected verdict to compare with.
  case noExpectations

  package var description: String {
    switch self {
    case .unknownCommand(let name, let suggestion):
      return "unknown command '\(name)'" + Self.didYouMean(suggestion)
    case .unknownOption(let name, let command, let suggestion):
      return "unknown option '\(name)'" + (command.map { " for '\($0)'" } ?? "")
        + Self.didYouMean(suggestion)
    case .missingValue(let option, let placeholder, let command):
      return "option '\(option)' of '\(command)' needs a value: \(option) \(placeholder)"
    case .unexpectedValue(let option, let command):
      return "option '\(option)' of '\(command)' takes no value"
    case .invalidValue(let option, let value, let expected, let command):
      return "invalid value '\(value)' for '\(option)' of '\(command)': expected \(expected)"
    case .repeatedOption(let option, let command):
      return "option '\(option)' of '\(command)' is given more than once"
    case .conflictingOptions(let first, let second, let command):
      return "options '\(first)' and '\(second)' of '\(command)' cannot be used together"
    case .missingArgument(let name, let command):
      return "'\(command)' needs a <\(name)>"
    case .unexpectedArgument(let argument, let command):
      return "unexpected argument '\(argument)'" + (command.map { " for '\($0)'" } ?? "")
    case .unknownTarget(let name, let known, let suggestion):
      let list =
        known.isEmpty
        ? "this program has no targets" : "the targets are " + known.joined(separator: ", ")
      return "unknown target '\(name)'" + Self.didYouMean(suggestion) + "; " + list
    case .unknownWorkload(let name, let known, let suggestion):
      let list =
        known.isEmpty
        ? "this program has no workloads" : "the workloads are " + known.joined(separator: ", ")
      return "unknown workload '\(name)'" + Self.didYouMean(suggestion) + "; " + list
    case .notAnExploration(let name):
      return "'\(name)' is a spec, not a body to explore: check it with 'run'"
    case .explorationInStressMode(let name, let command):
      return "'\(name)' is a body to explore, which '\(command)' runs only in schedule mode: "
        + "leave out '--mode stress'"
    case .noBenchmarkPlan:
      return "'bench' needs a benchmark plan, and this program was given none"
    case .noExpectations:
      return "'demo' compares targets with their expected verdicts, and no target of this program "
        + "has one: give them with Target(spec, expectation: .pass) or .fail(…), or check one with 'run'"
    }
  }

  /// The command whose help the hint line names, or nil for the program's own.
  var command: String? {
    switch self {
    case .unknownCommand, .noBenchmarkPlan, .unknownTarget, .unknownWorkload: return nil
    case .notAnExploration: return "explore"
    case .explorationInStressMode(_, let command): return command
    case .noExpectations: return "demo"
    case .unknownOption(_, let command, _), .unexpectedArgument(_, let command): return command
    case .missingValue(_, _, let command), .unexpectedValue(_, let command),
      .invalidValue(_, _, _, let command), .repeatedOption(_, let command),
      .conflictingOptions(_, _, let command), .missingArgument(_, let command):
      return command
    }
  }

  /// The line printed after the error, pointing at the help or the list that fixes it.
  func hint(programName: String) -> String {
    switch self {
    case .unknownTarget: return "Run '\(programName) list' to see the targets."
    case .noBenchmarkPlan: return "Run '\(programName) bench --help' for usage."
    default: return "Run '\(programName)\(command.map { " \($0)" } ?? "") --help' for usage."
    }
  }

  private static func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { " (did you mean '\($0)'?)" } ?? ""
  }
}
