import Foundation
import Synchronization
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// `racecheck workload NAME` runs a program's workload target as its options ask, and reports like `check`.
  @Suite struct WorkloadCommandTests {
    typealias Store = WorkloadTests.LockedStore
    typealias SplitStore = WorkloadTests.SplitAppendStore

    static let passing = WorkloadTarget(
      "locked-store", summary: "a locked dictionary", expectation: .pass
    ) { request in
      try request.run(
        Workload(
          WorkloadTests.lockedSpec,
          configuration: Configuration.Workload(clients: 2, limit: .duration(.seconds(30)))))
    }

    static let failing = WorkloadTarget("split-append", expectation: .fail) { request in
      let spec = Spec("split-append", make: SplitStore.init, model: KeyValueModel()) {
        Operation("get", Generator.element(of: ["a"])) { (store: SplitStore, key: String) in
          store.get(key)
        }
        Operation("append", Generator.element(of: ["a"]), Generator.element(of: ["x", "y"])) {
          (store: SplitStore, key: String, suffix: String) in store.append(key, suffix)
        }
      }
      return try request.run(
        Workload(
          spec, configuration: Configuration.Workload(clients: 4, limit: .operations(2_000))))
    }

    struct ServerMissing: Error, CustomStringConvertible {
      var description: String { "the server is not installed" }
    }

    static let unavailable = WorkloadTarget("needs-a-server") { _ in throw ServerMissing() }

    static func driver() -> CommandLineDriver {
      var driver = CLI.driver()
      driver.workloads = [passing, failing, unavailable]
      return driver
    }

    @Test func aCorrectSubjectPassesWithTheCountsOfWhatRan() {
      let result = CLI.invoke(
        ["workload", "locked-store", "--operations", "3000", "--clients", "3"],
        driver: Self.driver())
      #expect(result.status == 0)
      #expect(result.outputLines.first?.hasPrefix("workload locked-store: 3 clients, ") == true)
      #expect(result.output.contains("3000 calls (0 unknown, 0 failed)"))
      #expect(result.output.contains("workload locked-store: linearizable under the kv model"))
    }

    @Test func aViolationExitsOneAndTheHistoryIsKept() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let path = folder.path + "/split.json"
      let result = CLI.invoke(
        ["workload", "split-append", "--history", path], driver: Self.driver())
      #expect(result.status == 1)
      #expect(result.output.contains("NOT linearizable under the kv model"))
      // The file is a history `check` reads to the same verdict.
      let recheck = CLI.invoke(["check", path], driver: Self.driver())
      #expect(recheck.status == 1)
      #expect(recheck.output.contains("2000 operations"))
    }

    @Test func theJSONNestsTheChecksDocument() throws {
      let result = CLI.invoke(
        ["workload", "locked-store", "--time", "200ms", "--json", "--seed", "9"],
        driver: Self.driver())
      #expect(result.status == 0)
      let json = try #require(result.jsonObject)
      #expect(json["workload"] as? String == "locked-store")
      #expect(json["clients"] as? Int == 2)
      #expect((json["calls"] as? Int ?? 0) > 0)
      #expect(json["unknown"] as? Int == 0)
      #expect((json["faults"] as? [Any])?.isEmpty == true)
      #expect((json["check"] as? [String: Any])?["verdict"] as? String == "linearizable")
    }

    @Test func whatCannotStartExitsUnavailable() {
      let result = CLI.invoke(["workload", "needs-a-server"], driver: Self.driver())
      #expect(result.status == 69)
      #expect(
        result.errors
          == "racecheck: workload 'needs-a-server' could not start: the server is not installed")
    }

    @Test func badOptionsAreUsageErrors() {
      let both = CLI.invoke(
        ["workload", "locked-store", "--time", "1", "--operations", "5"], driver: Self.driver())
      #expect(both.status == 64)
      #expect(
        both.errors.contains(
          "options '--time' and '--operations' of 'workload' cannot be used together"))
      let unknown = CLI.invoke(["workload", "locked-stor"], driver: Self.driver())
      #expect(unknown.status == 64)
      #expect(
        unknown.errors.contains("unknown workload 'locked-stor' (did you mean 'locked-store'?)"))
      let badTime = CLI.invoke(["workload", "locked-store", "--time", "5x"], driver: Self.driver())
      #expect(badTime.status == 64)
      #expect(
        badTime.errors.contains("a positive number of seconds, such as 30, 1.5, 500ms, 30s or 2m"))
    }

    @Test func listShowsTheWorkloadsAfterTheTargets() {
      let result = CLI.invoke(["list"], driver: Self.driver())
      #expect(result.status == 0)
      #expect(result.output.contains("workload"))
      #expect(result.outputLines.contains { $0.hasPrefix("locked-store") && $0.contains("pass") })
      #expect(result.outputLines.contains { $0.hasPrefix("split-append") && $0.contains("fail") })
    }
  }
}
