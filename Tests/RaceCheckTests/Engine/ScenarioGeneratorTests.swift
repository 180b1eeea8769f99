import Foundation
import RaceCheck
import RaceCheckTestSupport
import Testing

extension RaceCheckTestSuite {
  struct ScenarioGeneratorTests {
    @Test func sameSeedGivesTheSameScenarios() throws {
      let first = try #require(GuardedInsertArray.spec.check(noisyConfiguration(seed: 42)).failure)
      let second = try #require(GuardedInsertArray.spec.check(noisyConfiguration(seed: 42)).failure)
      #expect(first.original == second.original)
      #expect(first.scenarioIndex == second.scenarioIndex)
    }

    @Test func scenariosHaveTheConfiguredShape() throws {
      var configuration = noisyConfiguration(seed: 7)
      configuration.shape = Configuration.Shape(
        threads: 3, operationsPerThread: 4, initialOperations: 2, postOperations: 1)
      let failure = try #require(GuardedInsertArray.spec.check(configuration).failure)
      #expect(failure.original.initial.count == 2)
      #expect(failure.original.parallel.map(\.count) == [4, 4, 4])
      #expect(failure.original.post.count == 1)
    }

    @Test func oneScenarioInFourStartsOnAFreshSubjectWithTheThreadsDrawnAsBefore() {
      let generator = ScenarioGenerator(spec: FirstUseTotal.spec, shape: Configuration.Shape())
      for index in 0..<9 {
        let scenario = generator.scenario(seed: 1, index: index)
        #expect(scenario.initial.isEmpty == [4, 8].contains(index), "scenario \(index)")
        #expect(scenario.parallel.map(\.count) == [5, 5])
      }
    }

    /// A race in a type's first use, which an init part always makes alone, is found by default.
    @Test func aFirstUseRaceIsFoundInAScenarioThatStartsFresh() throws {
      var configuration = smallConfiguration(seed: 1)
      configuration.mode = .schedule(strategy: .random, schedules: 200)
      let report = FirstUseTotal.spec.check(configuration)
      let failure = try #require(report.failure, "\(report)")
      #expect([4, 8].contains(failure.scenarioIndex))
      #expect(failure.original.initial.isEmpty)
      #expect(
        report.description.contains("from a scenario that starts on a fresh subject"),
        "\(report)")
    }

    @Test func seedsParseInDecimalAndHexadecimal() {
      #expect(Configuration.parseSeed("42") == 42)
      #expect(Configuration.parseSeed("0x2A") == 42)
      #expect(Configuration.parseSeed(" 0x2a ") == 42)
      #expect(Configuration.parseSeed("0xZZ") == nil)
      #expect(Configuration.parseSeed("-1") == nil)
      #expect(Configuration.formatSeed(42) == "0x000000000000002A")
    }

    /// A configuration that finds the sequential bug without shrinking it.
    private func noisyConfiguration(seed: UInt64) -> Configuration {
      var configuration = smallConfiguration(seed: seed)
      configuration.minimizes = false
      return configuration
    }
  }
}

/// A total set up on first use, by whichever call comes first: the check and the set-up are two locked steps, so two first calls may both set it up, and one loses the other's addition.
private final class FirstUseTotal: @unchecked Sendable {
  // @unchecked Sendable: every access holds the lock; the bug is between two of them.
  private let lock = NSLock()
  private var counts: [Int]?

  private func setUpOnFirstUse() {
    if lock.withLock({ counts == nil }) { lock.withLock { counts = [0] } }
  }

  func add() {
    setUpOnFirstUse()
    lock.withLock { counts![0] += 1 }
  }

  func total() -> Int {
    setUpOnFirstUse()
    return lock.withLock { counts![0] }
  }

  static let spec = Spec("FirstUseTotal", make: FirstUseTotal.init, model: 0) {
    Operation(
      "add", perform: { (total: FirstUseTotal) in total.add() },
      model: { (count: inout Int) in count += 1 })
    Operation(
      "total", perform: { (total: FirstUseTotal) in total.total() },
      model: { (count: inout Int) in count })
  }
}
