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
