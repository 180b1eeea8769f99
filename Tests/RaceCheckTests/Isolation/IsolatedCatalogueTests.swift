import Fixtures
import Foundation
import RaceCheck
import Testing

extension RaceCheckTestSuite {
  /// The rows that crash reach their catalogue verdict in an isolated child, for each of five seeds.
  @Suite struct IsolatedCatalogueTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5]

    static var rows: [Int] { Catalogue.isolatedFixtures.map(\.row) }

    /// Rows whose failure is always found but, in a few runs in a hundred, not named as the catalogue asks.
    ///
    /// Measured on idle cores: one clean-clone run of the suite had row 2 named `data-race`
    /// (a SIGABRT in the reader outside the enumerator), row 19 hang (the racing appends
    /// corrupted the array into a loop) and row 21 `unclassified` (a SIGABRT on the only
    /// runner thread after shrinking), where two other runs named all 45 row-seeds.
    /// A known issue is recorded when they miss; issue 3 stays open until they do not.
    static let intermittentRows: Set<Int> = [2, 19, 21]

    @Test(arguments: rows)
    func crashingFixtureReachesItsCatalogueVerdictForEverySeed(row: Int) throws {
      let fixture = try #require(Catalogue.isolatedFixtures.first { $0.row == row })
      let expectation = try #require(fixture.target.expectation)
      let executable = try BuildProducts.path(of: "racecheck")
      for seed in Self.seeds {
        var configuration = Configuration.demo(seed: seed)
        configuration.reproDirectory = FileManagerTemporary.directory
        var check = IsolatedCheck(target: fixture.target, configuration: configuration)
        check.executable = executable
        let report = check.run()
        let agrees = {
          #expect(
            expectation.isMet(by: report),
            "row \(row) (\(fixture.target.name)), seed \(seed): expected \(expectation), got \(report.verdict) \(report.failure?.diagnosis.pattern.rawValue ?? "")\n\(report)"
          )
        }
        if Self.intermittentRows.contains(row) {
          // Still checked and reported on every run; see `intermittentRows`.
          withKnownIssue("row \(row) is sometimes found but not named", isIntermittent: true) {
            agrees()
          }
        } else {
          agrees()
        }
      }
    }
  }
}
