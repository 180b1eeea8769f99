import CachedStoreExample
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// The example's workloads over real HTTP: the correct cache passes, and the racy one's stale fill is found.
  @Suite struct CachedStoreWorkloadTests {
    static func run(_ name: String) throws -> WorkloadReport {
      let target = try #require(CachedStoreWorkloads.targets.first { $0.name == name })
      return try target.run(WorkloadTarget.Request())
    }

    @Test func theCorrectCachePasses() throws {
      let report = try Self.run("cached-store")
      #expect(report.verdict.verdict == .linearizable, "\(report.lines.joined(separator: "\n"))")
      #expect(report.history.operations.count == 5_000)
    }

    @Test func theRacyCachesStaleFillIsFound() throws {
      let report = try Self.run("cached-store-racy")
      #expect(report.verdict.verdict == .notLinearizable)
      // The value read is one a write had stored and a later write replaced.
      let violation = try #require(report.verdict.violation)
      #expect(violation.key != nil)
    }
  }
}
