import Fixtures
import Foundation
import RaceCheck
import Testing

extension RaceCheckTestSuite {
  /// The rows that crash are found in an isolated child on each of the catalogue's seeds, never misnamed, and named exactly on one at least.
  @Suite struct IsolatedCatalogueTests {
    static var seeds: [UInt64] { catalogueSeeds }

    static var rows: [Int] { Catalogue.isolatedFixtures.map(\.row) }

    @Test(arguments: rows)
    func crashingFixtureIsFoundAndNeverMisnamed(row: Int) throws {
      let fixture = try #require(Catalogue.isolatedFixtures.first { $0.row == row })
      // In a --sanitize=thread build the data races are expected by their specific names.
      let expectation = try #require(
        Catalogue.withModeExpectations([fixture.target]).first?.stressExpectation)
      let executable = try BuildProducts.path(of: "racecheck")
      let reports = Self.seeds.map { seed in
        var configuration = Configuration.demo(seed: seed)
        configuration.reproDirectory = FileManagerTemporary.directory
        return (
          seed, fixture.target.check(configuration, worker: WorkerCommand(executable: executable))
        )
      }
      CatalogueVerdicts.expectHonest(
        row: row, name: fixture.target.name, expectation: expectation, reports: reports)
    }
  }
}
