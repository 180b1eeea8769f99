import Foundation
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

extension UnitTestSuite {
  /// A repro file records where its check was started, and its name keeps apart the files of different origins.
  @Suite struct ReproOriginTests {
    private static let testOrigin = Configuration.Origin.test(
      id: "MyTests.CacheSuite/lookup()",
      command: #"swift test --filter '^MyTests\.CacheSuite/lookup\(\)/'"#)

    private func repro(origin: Configuration.Origin?) -> Repro {
      var configuration = Configuration()
      configuration.origin = origin
      return Repro(
        target: "LockArray", seed: 42, scenarioIndex: 3, configuration: configuration,
        scenario: Scenario(initial: [Scenario.Call("append", [.int(1)])]), diagnosis: nil)
    }

    private func written(_ repro: Repro) throws -> (path: String, text: String) {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("racecheck-origin-\(UUID().uuidString)").path
      let path = try repro.write(into: directory)
      return (path, try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test func reproWithoutAnOriginHasNoOriginKeyAndReadsBack() throws {
      let file = try written(repro(origin: nil))
      #expect(!file.text.contains("origin"))
      #expect(try Repro.read(from: file.path).configuration.origin == nil)
    }

    @Test(arguments: [testOrigin, .program("check-my-types")])
    func originIsReadBackFromTheFile(origin: Configuration.Origin) throws {
      let file = try written(repro(origin: origin))
      #expect(try Repro.read(from: file.path).configuration.origin == origin)
    }

    @Test func testOriginIsWrittenAsTheTestAndItsCommand() throws {
      let file = try written(repro(origin: Self.testOrigin))
      let document = try JSONSerialization.jsonObject(with: Data(file.text.utf8)) as? [String: Any]
      let configuration = try #require(document?["configuration"] as? [String: Any])
      #expect(
        configuration["origin"] as? [String: String] == [
          "test": "MyTests.CacheSuite/lookup()",
          "command": #"swift test --filter '^MyTests\.CacheSuite/lookup\(\)/'"#,
        ])
    }

    @Test func originThatNamesNeitherATestNorAProgramIsRejected() throws {
      let file = try written(repro(origin: .program("racecheck")))
      var document = try #require(
        try JSONSerialization.jsonObject(with: Data(file.text.utf8)) as? [String: Any])
      var configuration = try #require(document["configuration"] as? [String: Any])
      configuration["origin"] = [String: Any]()
      document["configuration"] = configuration
      try JSONSerialization.data(withJSONObject: document).write(
        to: URL(fileURLWithPath: file.path))
      #expect(
        throws: ReproError.malformed(
          file.path, "configuration.origin: an origin names a 'test' or a 'program'")
      ) {
        try Repro.read(from: file.path)
      }
    }

    @Test func fileNameEndsWithTheModeAndTheOrigin() {
      #expect(repro(origin: nil).fileName == "LockArray-0x000000000000002A-3.stress.json")
      #expect(
        repro(origin: .program("check my types")).fileName
          == "LockArray-0x000000000000002A-3.stress.program-check_my_types.json")
      // 458DA530 is the FNV-1a hash of the test's identifier: the same in every run.
      #expect(
        repro(origin: Self.testOrigin).fileName
          == "LockArray-0x000000000000002A-3.stress.test-lookup-458DA530.json")
    }

    @Test func aSanitizedBuildsFileIsNamedAndMarkedAsSuch() throws {
      var sanitized = repro(origin: .program("racecheck"))
      // This test build has no sanitizer: a repro made here is unmarked, and its file has no key.
      #expect(sanitized.threadSanitizer == nil)
      #expect(try !written(sanitized).text.contains("threadSanitizer"))
      sanitized.threadSanitizer = true
      #expect(
        sanitized.fileName == "LockArray-0x000000000000002A-3.stress.tsan.program-racecheck.json")
      let file = try written(sanitized)
      #expect(try Repro.read(from: file.path).threadSanitizer == true)
      let report = ReplayReport(
        repro: sanitized, outcome: .notReproduced, invocations: 10, failures: 0,
        timeLimit: .seconds(1), elapsed: .seconds(1))
      let note = ReplayCommand.sanitizerNote(report, file: file.path)
      #expect(note.first?.contains("--sanitize=thread") == true, "\(note)")
      #expect(ReplayCommand.describe(report, file: file.path).first == note.first)
    }

    @Test func scheduleAndStressFailuresOfOneSeedAndScenarioGoToDifferentFiles() throws {
      let stress = repro(origin: .program("racecheck"))
      var schedule = stress
      schedule.configuration.scheduleSettings = ScheduleSettings()
      schedule.schedule = [0, 1, 0]
      #expect(schedule.fileName == "LockArray-0x000000000000002A-3.schedule.program-racecheck.json")
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("racecheck-mode-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let stressPath = try stress.write(into: directory)
      let schedulePath = try schedule.write(into: directory)
      #expect(stressPath.hasSuffix(".stress.program-racecheck.json"))
      // Neither file overwrote the other.
      #expect(try Repro.read(from: schedulePath).schedule == [0, 1, 0])
      #expect(try Repro.read(from: stressPath).schedule == nil)
    }

    @Test func sameFailureFromDifferentOriginsIsWrittenToDifferentFiles() throws {
      let origins: [Configuration.Origin?] = [
        nil, .program("racecheck"), .program("check-my-types"),
        .test(id: "MyTests.CacheSuite/lookup()", command: "swift test"),
        // The same function name in another suite, and a test named like the program.
        .test(id: "MyTests.OtherSuite/lookup()", command: "swift test"),
        .test(id: "MyTests.CacheSuite/racecheck()", command: "swift test"),
        .test(id: "MyTests.CacheTests/racecheck", command: "swift test"),
      ]
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("racecheck-origin-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let paths = try origins.map { try repro(origin: $0).write(into: directory) }
      #expect(Set(paths).count == origins.count, "\(paths)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == origins.count)
    }
  }
}
