import Foundation
import Testing

@testable import RaceCheck

extension RaceCheckTestSuite {
  /// A repro file records where its check was started.
  @Suite struct ReproOriginTests {
    private static let testOrigin = Configuration.Origin.test(
      id: "MyTests.CacheSuite/lookup()",
      command: #"swift test --filter '^MyTests\.CacheSuite/lookup\(\)/'"#)

    private func repro(origin: Configuration.Origin?) -> Repro {
      var configuration = Configuration()
      configuration.origin = origin
      return Repro(
        target: "LockArray", seed: 42, scenarioIndex: 3, configuration: configuration,
        scenario: Scenario(initial: [Scenario.Call("append", [.int(1)])]), diagnosis: nil,
        history: nil)
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
  }
}
