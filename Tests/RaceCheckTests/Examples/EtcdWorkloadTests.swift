import EtcdExample
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// The etcd workloads against a real three-member cluster with members paused and killed: linearizable reads pass, serializable reads are caught stale.
  @Suite(
    .enabled(
      if: EtcdCluster.installedExecutable != nil || EtcdInCI.isCI,
      "etcd is not installed (apt-get install -y etcd-server); with CI set, its absence fails"))
  struct EtcdWorkloadTests {
    /// Runs the workload target `name` for `seconds`, on a thread of its own: its body waits for the cluster's tasks.
    static func run(_ name: String, for time: Duration) async throws -> WorkloadReport {
      try #require(
        EtcdCluster.installedExecutable != nil,
        "etcd is missing; .ci/run installs it with apt-get install -y etcd-server")
      let target = try #require(EtcdWorkloads.targets.first { $0.name == name })
      var request = WorkloadTarget.Request()
      request.limit = .duration(time)
      let limited = request
      let result = await TestCheck.onThreadOfItsOwn {
        Result { try target.run(limited) }
      }
      return try result.get()
    }

    @Test func linearizableReadsPassWhileMembersArePausedAndKilled() async throws {
      let report = try await Self.run("etcd", for: .seconds(12))
      let text = report.lines.joined(separator: "\n")
      #expect(report.verdict.verdict == .linearizable, "\(text)")
      let faults = report.history.faults
      #expect(faults.count >= 3, "\(text)")
      // The nemesis draws from the seed (1): its first three faults are two kills and a pause.
      #expect(Set(faults.prefix(3).map(\.kind)) == [.pause, .kill], "\(faults)")
      #expect(faults.allSatisfy { $0.end != nil }, "every fault is healed by the end: \(faults)")
      // A killed member refuses connections: those requests were never sent, and failed.
      #expect(report.history.operations.contains { $0.status == .fail }, "\(text)")
    }

    @Test func serializableReadsOfAPausedMemberAreStale() async throws {
      let report = try await Self.run("etcd-serializable", for: .seconds(12))
      let text = report.lines.joined(separator: "\n")
      #expect(report.verdict.verdict == .notLinearizable, "\(text)")
      #expect(text.contains("a stale read:"), "\(text)")
    }
  }
}
