import Fixtures
import RaceCheck
import Testing

@testable import RaceCheckEngine

/// The catalogue's bodies to explore that must fail, by name.
private let failingExplorations = Catalogue.explorationTargets.filter {
  $0.expectation?.verdict == .fail
}.map(\.name)

/// Their fixed twins, by name.
private let fixedExplorations = Catalogue.explorationTargets.filter {
  $0.expectation?.verdict == .pass
}.map(\.name)

extension RaceCheckTestSuite {
  @Suite struct ExplorationCatalogueTests {
    /// A body's check in this process with the default budget of 1,000 schedules, writing its repro to a temporary folder.
    private static func configuration(seed: UInt64) -> Configuration {
      var configuration = Configuration(seed: seed, isolated: false)
      configuration.reproDirectory = FileManagerTemporary.directory
      return configuration
    }

    private static func target(named name: String) throws -> Target {
      try #require(Catalogue.explorationTargets.first { $0.name == name })
    }

    @Test func everyFailingRowIsFollowedByItsFixedTwin() {
      let rows = Catalogue.explorations
      for (position, fixture) in rows.enumerated()
      where fixture.target.expectation?.verdict == .fail {
        let twin = rows.indices.contains(position + 1) ? rows[position + 1] : nil
        #expect(twin?.row == fixture.row + 1, "\(fixture.target.name)")
        #expect(twin?.target.expectation == .pass, "\(fixture.target.name)")
      }
      #expect(Catalogue.explorationTargets.allSatisfy { $0.isExploration })
    }

    // `racecheck demo --mode schedule --seeds 1,…,10` checks every body on ten seeds in CI; here
    // three seeds show that each finds and names its bug and that its repro replays exactly.
    @Test(arguments: failingExplorations)
    func failingRowIsNamedOnSeedsOneToThreeAndItsReproReplaysExactly(name: String) throws {
      let target = try Self.target(named: name)
      let expectation = try #require(target.expectation)
      for seed: UInt64 in 1...3 {
        let report = target.checkable.check(Self.configuration(seed: seed))
        let failure = try #require(report.failure, "\(name), seed \(seed): \(report)")
        #expect(expectation.isMet(by: report), "\(name), seed \(seed): \(report)")
        #expect(report.invocations <= 1_000, "\(name), seed \(seed)")
        let path = try #require(failure.reproPath, "\(name), seed \(seed): no repro")
        let replay = try target.checkable.replay(try Repro.read(from: path))
        #expect(replay.divergence == nil, "\(name), seed \(seed): \(replay.divergence ?? "")")
        #expect(replay.trace?.steps == failure.trace?.steps, "\(name), seed \(seed)")
        guard case .reproduced = replay.outcome else {
          Issue.record("\(name), seed \(seed): the replay did not fail")
          continue
        }
      }
    }

    /// Partial-order reduction's search of a body, in this process, up to 5,000 schedules.
    private static var reducing: Configuration {
      var configuration = configuration(seed: 1)
      configuration.scheduleSettings = ScheduleSettings(strategy: .dpor, schedules: 5_000)
      return configuration
    }

    @Test(arguments: failingExplorations)
    func failingRowIsNamedByTheReduction(name: String) throws {
      let target = try Self.target(named: name)
      let report = target.checkable.check(Self.reducing)
      #expect(try #require(target.expectation).isMet(by: report), "\(name): \(report)")
    }

    @Test(arguments: fixedExplorations)
    func fixedTwinPassesEveryInterleaving(name: String) throws {
      let target = try Self.target(named: name)
      let report = target.checkable.check(Self.reducing)
      #expect(report.verdict == .pass, "\(name): \(report)")
      #expect(
        report.description.contains("every interleaving of this body explored"), "\(report)")
    }
  }
}
