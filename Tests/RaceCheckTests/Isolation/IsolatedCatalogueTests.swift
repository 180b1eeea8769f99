import Fixtures
import Foundation
import RaceCheck
import Testing

extension RaceCheckTestSuite {
  /// The rows that crash reach their catalogue verdict in an isolated child, for each of five seeds.
  @Suite struct IsolatedCatalogueTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5]

    static var rows: [Int] { Catalogue.isolatedFixtures.map(\.row) }

    @Test(arguments: rows)
    func crashingFixtureReachesItsCatalogueVerdictForEverySeed(row: Int) throws {
      let fixture = try #require(Catalogue.isolatedFixtures.first { $0.row == row })
      let expectation = try #require(fixture.target.expectation)
      let executable = try BuildProducts.path(of: "racecheck")
      for seed in Self.seeds {
        var configuration = Configuration.demo(seed: seed)
        configuration.reproDirectory = FileManagerTemporary.directory
        let report = fixture.target.check(
          configuration, worker: WorkerCommand(executable: executable))
        #expect(
          expectation.isMet(by: report),
          "row \(row) (\(fixture.target.name)), seed \(seed): expected \(expectation), got \(report.verdict) \(report.failure?.diagnosis.pattern.rawValue ?? "")\n\(report)"
        )
      }
    }
  }
}
