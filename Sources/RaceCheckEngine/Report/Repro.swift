import Foundation

/// A repro file: the minimized scenario of a failure with the seed and settings that found it.
///
/// `racecheck replay FILE` runs it again; the file is JSON so it can be read and edited.
package struct Repro: Hashable, Sendable, Codable {
  /// The file format's version, `1`.
  package var racecheck: Int
  /// The spec the failure was found in.
  package var target: String
  /// The run's seed, as `0x…`.
  package var seed: String
  /// The index of the failing scenario in the run.
  package var scenarioIndex: Int
  /// The configuration of the run.
  package var configuration: Configuration
  /// The minimized scenario.
  package var scenario: Scenario
  /// The diagnosis the failure got, if any.
  package var diagnosis: BugPattern?
  /// How the failure showed; nil in files written before crashes had repro files, which were all non-linearizable results.
  package var failure: FailureReport.Kind?
  /// A failing history of the scenario, whose `Codable` form is the history file's, times counted from its first call.
  package var operations: [RecordedHistory.Operation]?
  /// The history's model, so that the repro file is also a history file (`racecheck check` reads it); absent in older files.
  package var model: String?
  /// The model's initial state; absent for the model's default and in older files.
  package var initial: Value?
  /// The failing schedule, for a failure found in schedule mode: the thread chosen at each scheduling point.
  ///
  /// `racecheck replay` runs it exactly, and says where the code under test left it.
  package var schedule: [Int]?
  /// True when a `--sanitize=thread` build found the failure; a build without the sanitizer does not see the races it reports.
  package var threadSanitizer: Bool?

  /// Creates a repro without a history, as one of a failure that left none has (a crash, a hang, an early exit).
  package init(
    target: String, seed: UInt64, scenarioIndex: Int, configuration: Configuration,
    scenario: Scenario, diagnosis: BugPattern?, failure: FailureReport.Kind? = .nonLinearizable
  ) {
    racecheck = 1
    self.target = target
    self.seed = Configuration.formatSeed(seed)
    self.scenarioIndex = scenarioIndex
    self.configuration = configuration
    self.scenario = scenario
    self.diagnosis = diagnosis
    self.failure = failure
    threadSanitizer = SanitizerRaceLog.isActive ? true : nil
  }

  /// Creates a repro whose history names its model, which makes the file a history file too.
  package init(
    target: String, seed: UInt64, scenarioIndex: Int, configuration: Configuration,
    scenario: Scenario, diagnosis: BugPattern?, history: RecordedHistory
  ) {
    self.init(
      target: target, seed: seed, scenarioIndex: scenarioIndex, configuration: configuration,
      scenario: scenario, diagnosis: diagnosis)
    model = history.model
    initial = history.initial
    operations = history.operations
  }

  /// Reads a repro file, or says precisely why it cannot be used.
  package static func read(from path: String) throws(ReproError) -> Repro {
    guard FileManager.default.fileExists(atPath: path) else { throw .missing(path) }
    guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
    let repro: Repro
    do {
      repro = try JSONDecoder().decode(Repro.self, from: data)
    } catch {
      throw .malformed(path, JSONErrorDescription.describe(error))
    }
    guard repro.racecheck == 1 else { throw .unsupportedVersion(path, repro.racecheck) }
    return repro
  }

  /// Whether the failure killed the isolated child (a crash, a hang or an early exit), so that replaying it in this process would end it too.
  package var endsTheProcess: Bool {
    switch failure {
    case .crash, .hang, .exit: true
    // Schedule mode's failures are reports of the scheduler, in this process.
    case .nonLinearizable, .dataRace, .deadlock, .stepBound, .failedExpectation, nil: false
    }
  }

  /// The file's name: the target, the seed and the scenario, then the mode and the origin, so that no two modes or origins share a file.
  ///
  /// `LockArray-0x…-3.stress.program-racecheck.json` from a stress run on a program's
  /// command line, `LockArray-0x…-3.schedule.program-racecheck.json` from a schedule run of
  /// the same seed (its scenarios are other ones), `LockArray-0x…-3.stress.test-lockArrayInserts-5E2C0A91.json`
  /// from a test, whose hexadecimal tag is a hash of its identifier (two tests of one name in
  /// two suites differ), and `LockArray-0x…-3.stress.json` from a check of no origin. A
  /// `--sanitize=thread` build adds `.tsan` after the mode (`LockArray-0x…-3.stress.tsan.program-racecheck.json`):
  /// the same seed finds other failures there, and its file replays only in such a build.
  var fileName: String {
    let sanitizer = threadSanitizer == true ? ".tsan" : ""
    let stem =
      Self.fileNamePart(target) + "-" + seed + "-" + String(scenarioIndex) + "." + modeName
      + sanitizer
    switch configuration.origin {
    case .program(let name):
      return stem + ".program-" + Self.fileNamePart(name) + ".json"
    case .test(let id, _):
      let function = id.split(separator: "/").last?.split(separator: "(").first ?? Substring(id)
      return stem + ".test-" + Self.fileNamePart(String(function)) + "-" + Self.hashTag(id)
        + ".json"
    case nil:
      return stem + ".json"
    }
  }

  /// The mode that found the failure, as the file's name and `--mode` say it.
  private var modeName: String {
    configuration.scheduleSettings != nil || schedule != nil ? "schedule" : "stress"
  }

  /// `text` with every character but letters, digits, `-` and `_` made `_`.
  private static func fileNamePart(_ text: String) -> String {
    String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
  }

  /// Eight hexadecimal digits of the 32-bit FNV-1a hash of `text`: short, and the same in every run.
  private static func hashTag(_ text: String) -> String {
    var hash: UInt32 = 0x811C_9DC5
    for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    let digits = String(hash, radix: 16, uppercase: true)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// Writes the repro as pretty-printed JSON into `directory`, creating it, and returns the file's path.
  func write(into directory: String) throws -> String {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/" + fileName
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    return path
  }
}

/// Why a repro file cannot be replayed.
package enum ReproError: Error, Hashable, Sendable, CustomStringConvertible {
  /// There is no file at the path.
  case missing(String)
  /// The file exists but cannot be read.
  case unreadable(String)
  /// The file is not a repro file: truncated, not JSON, or missing fields.
  case malformed(String, String)
  /// The file has a version this racecheck does not read.
  case unsupportedVersion(String, Int)
  /// The file was recorded for another target.
  case wrongTarget(path: String, recorded: String, expected: String)
  /// The file names no target this program knows.
  case unknownTarget(path: String, recorded: String)
  /// The file names no target this program knows and was recorded by a test; `replay` is the command that runs it again.
  case recordedByTest(path: String, recorded: String, test: String, replay: String)
  /// The file names no target this program knows and was recorded by another program's command line.
  case recordedByProgram(path: String, recorded: String, program: String)
  /// The scenario does not fit the target's spec.
  case scenarioMismatch(path: String, ScenarioError)

  package var description: String {
    switch self {
    case .missing(let path): return "\(path): no such repro file"
    case .unreadable(let path): return "\(path): cannot be read"
    case .malformed(let path, let reason): return "\(path): not a valid repro file: \(reason)"
    case .unsupportedVersion(let path, let version):
      return
        "\(path): repro format version \(version) is not supported (this racecheck reads version 1)"
    case .wrongTarget(let path, let recorded, let expected):
      return "\(path): recorded for target '\(recorded)', not '\(expected)'"
    case .unknownTarget(let path, let recorded):
      return "\(path): recorded for target '\(recorded)', which this program does not know"
    case .recordedByTest(let path, let recorded, let test, let replay):
      return "\(path): recorded by the test \(test) for target '\(recorded)', which this program "
        + "does not know; the test replays it: \(replay)"
    case .recordedByProgram(let path, let recorded, let program):
      return "\(path): recorded by \(program) for target '\(recorded)', which this program "
        + "does not know; '\(program) replay' replays it"
    case .scenarioMismatch(let path, let problem):
      return "\(path): the scenario does not fit the target: \(problem)"
    }
  }
}

/// Turns a JSON decoding error into one line a user can act on.
enum JSONErrorDescription {
  static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ codingPath: [any CodingKey]) -> String {
      let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return text.isEmpty ? "the document" : String(text.drop { $0 == "." })
    }
    switch error {
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "the file is not valid JSON (truncated or corrupted)"
        : "\(path(context.codingPath)): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])) is missing"
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)) must be \(type)"
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)) must be \(type), found null"
    @unknown default:
      return "\(error)"
    }
  }
}
