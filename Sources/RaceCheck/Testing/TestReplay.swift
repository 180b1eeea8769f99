#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a test replays a check: `RACECHECK_SEED` and `RACECHECK_SCENARIO` in the environment, and the command a report prints.
enum TestReplay {
  /// The environment variable that sets the seed of every check in the test run.
  static let seedVariable = "RACECHECK_SEED"
  /// The environment variable that makes every check start at this scenario of its seed's sequence.
  static let scenarioVariable = "RACECHECK_SCENARIO"

  /// An environment variable that does not hold what it must.
  enum Error: Swift.Error, CustomStringConvertible {
    case badSeed(String)
    case badScenario(String)

    var description: String {
      switch self {
      case .badSeed(let text):
        "\(TestReplay.seedVariable)='\(text)' is not a seed: use decimal or 0x… hexadecimal"
      case .badScenario(let text):
        "\(TestReplay.scenarioVariable)='\(text)' is not a scenario index: use a non-negative integer"
      }
    }
  }

  /// Sets the seed and the first scenario from the environment, when it names them.
  static func apply(to configuration: inout Configuration) throws(Error) {
    if let text = value(of: seedVariable) {
      guard let seed = Configuration.parseSeed(text) else { throw .badSeed(text) }
      configuration.seed = seed
    }
    if let text = value(of: scenarioVariable) {
      guard let index = Int(text.trimmingWhitespace()), index >= 0 else {
        throw .badScenario(text)
      }
      configuration.firstScenario = index
    }
  }

  /// The command that runs the test again with the report's seed, from the scenario that failed.
  static func command(seed: UInt64, scenario: Int?, testName: String) -> String {
    var words = ["\(seedVariable)=\(Configuration.formatSeed(seed))"]
    if let scenario { words.append("\(scenarioVariable)=\(scenario)") }
    return (words + ["swift test --filter \(testName)"]).joined(separator: " ")
  }

  private static func value(of variable: String) -> String? {
    getenv(variable).map { String(cString: $0) }
  }
}
