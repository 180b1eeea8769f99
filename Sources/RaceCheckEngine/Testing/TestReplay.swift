import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a test replays a check: `RACECHECK_SEED`, `RACECHECK_SCENARIO` and `RACECHECK_SCHEDULE` in the environment, and the command a report prints.
package enum TestReplay {
  /// The environment variable that sets the seed of every check in the test run.
  static let seedVariable = "RACECHECK_SEED"
  /// The environment variable that makes every check start at this scenario of its seed's sequence.
  static let scenarioVariable = "RACECHECK_SCENARIO"
  /// The environment variable that makes every body to explore run this one schedule (``ScheduleChoices``) instead of its search; a spec's check ignores it.
  static let scheduleVariable = "RACECHECK_SCHEDULE"

  /// An environment variable that does not hold what it must.
  enum Error: Swift.Error, CustomStringConvertible {
    case badSeed(String)
    case badScenario(String)
    case badSchedule(String, ScheduleChoices.ParseError)

    var description: String {
      switch self {
      case .badSeed(let text):
        "\(TestReplay.seedVariable)='\(text)' is not a seed: use decimal or 0x… hexadecimal"
      case .badScenario(let text):
        "\(TestReplay.scenarioVariable)='\(text)' is not a scenario index: use a non-negative integer"
      case .badSchedule(let text, let error):
        "\(TestReplay.scheduleVariable)='\(text)' is not a schedule: \(error)"
      }
    }
  }

  /// Sets the seed, the first scenario and, for a body to explore, the schedule to replay from the environment, when it names them.
  ///
  /// A schedule names the scheduling points of one body: a spec's check, whose scenarios
  /// each have their own, ignores it.
  static func apply(to configuration: inout Configuration, exploresABody: Bool) throws(Error) {
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
    if exploresABody, let text = value(of: scheduleVariable) {
      let schedule: ScheduleChoices
      do throws(ScheduleChoices.ParseError) {
        schedule = try ScheduleChoices(parsing: text)
      } catch {
        throw .badSchedule(text, error)
      }
      // A body explores in schedule mode, with the default settings when none were given.
      var settings = configuration.scheduleSettings ?? .exploration
      settings.replayedSchedule = schedule
      configuration.scheduleSettings = settings
    }
  }

  /// The calling test as `swift test --filter` selects it alone: its identifier and an anchored pattern.
  struct Selection: Hashable, Sendable {
    /// The test's identifier: `Module.Suite/name()` for Swift Testing, `Module.Class/testName` for XCTest.
    var testID: String
    /// The regular expression that `swift test --filter` matches against this test and no other.
    var filter: String

    /// The test running now: Swift Testing's current test, else the XCTest method on the stack, else `function` by name.
    static func current(function: String) -> Selection {
      if let test = Test.current { return swiftTesting(id: test.id.description) }
      if let method = TestRelaunch.xcTestMethodOnStack() { return xcTest(method: method) }
      return unnamed(function: function)
    }

    /// A Swift Testing test, from its identifier with its source location (`Module.Suite/name()/File.swift:12:3`).
    ///
    /// `swift test --filter` matches a Swift Testing pattern against the whole identifier, location
    /// included, so the pattern is anchored at the start and ends at the slash before the
    /// location: `name()` does not select `nameIsFast()`, and moving the test in its file keeps
    /// the command working.
    static func swiftTesting(id: String) -> Selection {
      var components = id.split(separator: "/", omittingEmptySubsequences: false)
      if components.count > 1, let last = components.last, isSourceLocation(last) {
        components.removeLast()
        let testID = components.joined(separator: "/")
        return Selection(
          testID: testID, filter: "^" + TestRelaunch.escapingRegexMetacharacters(testID) + "/")
      }
      return Selection(
        testID: id, filter: "^" + TestRelaunch.escapingRegexMetacharacters(id) + "$")
    }

    /// An XCTest method, from its `Module.Class/testName`, which `swift test --filter` matches whole.
    static func xcTest(method: String) -> Selection {
      Selection(
        testID: method, filter: "^" + TestRelaunch.escapingRegexMetacharacters(method) + "$")
    }

    /// A function no test framework names, by its name alone: the pattern may select other tests too.
    static func unnamed(function: String) -> Selection {
      let name = function.split(separator: "(").first.map(String.init) ?? function
      return Selection(testID: name, filter: TestRelaunch.escapingRegexMetacharacters(name))
    }

    /// Whether an identifier's component is a source location, `File.swift:12:3`.
    private static func isSourceLocation(_ component: Substring) -> Bool {
      let parts = component.split(separator: ":", omittingEmptySubsequences: false)
      return parts.count >= 3
        && parts.suffix(2).allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
    }
  }

  /// How this library was built, which the test command repeats so that it runs the same code.
  struct Build: Hashable, Sendable {
    /// Whether it was built with `-c release`.
    var isOptimized: Bool
    /// Whether it was built with `--sanitize=thread`.
    var isThreadSanitized: Bool

    /// This build: SwiftPM defines `DEBUG` in every target of a debug build.
    static var current: Build {
      #if DEBUG
        let isOptimized = false
      #else
        let isOptimized = true
      #endif
      return Build(isOptimized: isOptimized, isThreadSanitized: SanitizerRaceLog.isActive)
    }
  }

  /// The `swift test` command that runs `selection` alone, built as `build` says.
  ///
  /// ```swift
  /// TestReplay.testCommand(selecting: .xcTest(method: "Tests.CacheTests/testHit"))
  /// // swift test --filter '^Tests\.CacheTests/testHit$'
  /// ```
  static func testCommand(selecting selection: Selection, build: Build = .current) -> String {
    var words = ["swift", "test"]
    if build.isOptimized { words += ["-c", "release"] }
    if build.isThreadSanitized { words.append("--sanitize=thread") }
    words += ["--filter", selection.filter]
    return words.map(ShellWord.quoted).joined(separator: " ")
  }

  /// The command that runs the test again with the seed, from the scenario that failed, or a body's failing schedule alone.
  ///
  /// ```swift
  /// TestReplay.command(seed: 1, scenario: nil, schedule: ScheduleChoices([0, 0, 1]), testCommand: "swift test")
  /// // RACECHECK_SEED=0x0000000000000001 RACECHECK_SCHEDULE='0*2,1' swift test
  /// ```
  static func command(
    seed: UInt64, scenario: Int?, schedule: ScheduleChoices? = nil, testCommand: String
  ) -> String {
    command(
      seed: Configuration.formatSeed(seed), scenario: scenario, schedule: schedule,
      testCommand: testCommand)
  }

  /// The command that runs the test again with a seed written as reports and repro files write it.
  package static func command(
    seed: String, scenario: Int?, schedule: ScheduleChoices? = nil, testCommand: String
  ) -> String {
    var words = ["\(seedVariable)=\(ShellWord.quoted(seed))"]
    if let scenario { words.append("\(scenarioVariable)=\(scenario)") }
    // A schedule of no scheduling point has no text to give back: the seed finds it again.
    if let schedule, !schedule.choices.isEmpty {
      words.append("\(scheduleVariable)=\(ShellWord.quoted(schedule.description))")
    }
    return (words + [testCommand]).joined(separator: " ")
  }

  private static func value(of variable: String) -> String? {
    getenv(variable).map { String(cString: $0) }
  }
}
