import Fixtures
import Foundation
import RaceCheck
import Testing

/// The seeds the tests that look at one row's evidence check it with.
let catalogueSeeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

/// The first row of each expectation, a verdict with its diagnosis, among `fixtures`: what the tests check every mode with.
///
/// The sweep of every row over several seeds is an acceptance run of the product, `racecheck
/// demo --seeds …` in CI (`.ci/run`), judged by the same contract; the tests keep one row of each
/// verdict and each diagnosis, so that every expectation the catalogue has is checked here too.
func representativeRows(
  of fixtures: [Fixture], expectation: (Target) -> RaceCheck.Expectation?
) -> [Int] {
  var seen: Set<RaceCheck.Expectation> = []
  return fixtures.sorted { $0.row < $1.row }.compactMap { fixture in
    let target = Catalogue.withModeExpectations([fixture.target])[0]
    guard let expected = expectation(target) else { return nil }
    return seen.insert(expected).inserted ? fixture.row : nil
  }
}

extension RaceCheckTestSuite {
  @Suite
  struct CatalogueTests {
    /// Every row stress mode checks, in this process or in an isolated child.
    static let fixtures = Catalogue.fixtures + Catalogue.isolatedFixtures

    /// One row of each stress expectation.
    static let rows = representativeRows(of: fixtures) { $0.stressExpectation }

    @Test func theRowsCoverEveryStressExpectation() {
      let all = Set(
        Catalogue.withModeExpectations(Self.fixtures.map(\.target)).compactMap(\.stressExpectation))
      let covered = Set(
        Self.rows.compactMap { row in
          Self.fixtures.first { $0.row == row }.flatMap {
            Catalogue.withModeExpectations([$0.target])[0].stressExpectation
          }
        })
      #expect(covered == all)
      #expect(Self.rows.count == all.count)
    }

    @Test(arguments: rows)
    func rowReachesItsVerdictOnSeedOne(row: Int) throws {
      let fixture = try #require(Self.fixtures.first { $0.row == row })
      // In a --sanitize=thread build the data races are expected by their specific names.
      let target = Catalogue.withModeExpectations([fixture.target])[0]
      let expectation = try #require(target.stressExpectation)
      var configuration = Configuration.demo(seed: 1)
      configuration.reproDirectory = FileManagerTemporary.directory
      let isolated = Catalogue.isolatedFixtures.contains { $0.row == row }
      let report =
        isolated
        ? target.check(
          configuration, worker: WorkerCommand(executable: try BuildProducts.path(of: "racecheck")))
        : target.checkable.check(configuration)
      CatalogueVerdicts.expectHonest(
        row: row, name: target.name, expectation: expectation, reports: [(1, report)])
    }

    @Test func lockArrayInsertAtCountIsFoundFromOneThread() throws {
      let target = try #require(Catalogue.targets.first { $0.name == "LockArray" })
      for seed in catalogueSeeds {
        var configuration = Configuration.demo(seed: seed)
        configuration.shape.threads = 1
        // What is asserted is the shrinker's result, which must not depend on how busy the cores are.
        configuration.shrinkTimeLimit = nil
        configuration.reproDirectory = FileManagerTemporary.directory
        let report = target.checkable.check(configuration)
        let failure = try #require(report.failure, "seed \(seed): no failure found with one thread")
        #expect(failure.diagnosis.pattern == .insertAtCountRejected)
        #expect(
          failure.scenario.parallel.count <= 1,
          "seed \(seed): minimized scenario uses threads:\n\(report)")
      }
    }

    // What must hold on every run: a diagnosis of the lost update names two racing increments
    // on two threads and the read that saw one of them. How far the scenario shrinks is left
    // open: a lost update that shows once in hundreds of invocations can leave a candidate
    // looking fixed; and on a busy machine a seed may not find it at all (see CatalogueVerdicts).
    @Test func atomicCounterNamesTwoRacingIncrementsAndTheReadThatSawOne() throws {
      let target = try #require(Catalogue.targets.first { $0.name == "AtomicCounter" })
      var named = 0
      for seed in catalogueSeeds {
        var configuration = Configuration.demo(seed: seed)
        configuration.reproDirectory = FileManagerTemporary.directory
        let report = target.checkable.check(configuration)
        guard let failure = report.failure, failure.diagnosis.pattern == .nonAtomicCompoundUpdate
        else { continue }
        named += 1
        let evidence = failure.diagnosis.evidence
        #expect(
          evidence.contains("increment on thread 0 overlapped increment on thread 1")
            || evidence.contains("increment on thread 1 overlapped increment on thread 0"),
          "seed \(seed):\n\(report)")
        #expect(evidence.contains("get returned"), "seed \(seed):\n\(report)")
      }
      #expect(named > 0, "no seed found and named the lost update")
    }
  }
}

/// The folder the tests' repro files go to, out of the package's tree; made on first use, so that any test may write there first.
enum FileManagerTemporary {
  static let directory: String = {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("racecheck-fixtures-tests").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()
}
