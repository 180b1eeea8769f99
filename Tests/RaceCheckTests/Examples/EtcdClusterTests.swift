import EtcdExample
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// The etcd example's building blocks against real etcd processes: a three-member cluster on
// loopback, its faults (pause, kill, restart, stop), and the JSON gateway client. Every test
// starts its own cluster and stops it on every path out, so no etcd outlives a test.

/// Whether the tests run in CI (`CI` is set), where a missing etcd fails the tests instead of skipping them.
enum EtcdInCI {
  static var isCI: Bool {
    !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
  }
}

extension RaceCheckTestSuite {
  @Suite(
    .enabled(
      if: EtcdCluster.installedExecutable != nil || EtcdInCI.isCI,
      "etcd is not installed (apt-get install -y etcd-server); with CI set, its absence fails"))
  struct EtcdClusterTests {
    /// Runs `body` on a fresh three-member cluster and a client of it, and stops the cluster however `body` ends.
    func withCluster(
      timeout: Duration = .seconds(2),
      _ body: (EtcdCluster, EtcdClient) async throws -> Void
    ) async throws {
      try #require(
        EtcdCluster.installedExecutable != nil,
        "etcd is missing; .ci/run installs it with apt-get install -y etcd-server")
      let cluster = try await EtcdCluster.start(timeout: .seconds(60))
      defer { cluster.stop() }
      try await body(cluster, EtcdClient(cluster: cluster, timeout: timeout))
    }

    /// The first result of `attempt` that does not throw, out of at most `attempts`; else the last error.
    ///
    /// For requests made while the cluster may be electing a leader after a fault: a put that
    /// failed may have been applied, so only idempotent requests are retried.
    func eventually<T>(
      _ attempts: Int = 10, _ attempt: () async throws(EtcdClientError) -> T
    ) async throws -> T {
      var lastError: EtcdClientError?
      for _ in 0..<attempts {
        do {
          return try await attempt()
        } catch {
          lastError = error
          try await Task.sleep(for: .milliseconds(100))
        }
      }
      throw lastError!
    }

    @Test func everyMemberOfAStartedClusterRunsAndAnswers() async throws {
      try await withCluster { cluster, client in
        #expect(cluster.members.map(\.name) == ["member0", "member1", "member2"])
        for member in cluster.members.indices {
          let pid = try #require(cluster.pid(of: member))
          #expect(cluster.status(of: member) == .running(pid: pid))
          #expect(try await client.isHealthy(member: member))
        }
      }
    }

    @Test func aPutIsSeenByLinearizableGetsThroughTheOtherMembers() async throws {
      try await withCluster { cluster, client in
        try await client.put("key", "value", on: 0)
        #expect(try await client.get("key", serializable: false, on: 1) == "value")
        #expect(try await client.get("key", serializable: false, on: 2) == "value")
        #expect(try await client.get("absent", serializable: false, on: 2) == nil)
      }
    }

    @Test func anErrorFromEtcdIsItsHTTPStatusAndBody() async throws {
      try await withCluster { cluster, client in
        // etcd refuses an empty key with a chunked 400 and a trailer, the shape of all its errors.
        let error = await #expect(throws: EtcdClientError.self) {
          try await client.put("", "value", on: 1)
        }
        guard case .httpStatus(1, 400, let body) = error else {
          Issue.record("expected an HTTP 400 from member 1, got \(String(describing: error))")
          return
        }
        #expect(body.contains("etcdserver: key is not provided"))
      }
    }

    @Test func compareAndSetSwapsExactlyWhenTheValueIsTheExpectedOne() async throws {
      try await withCluster { cluster, client in
        // An absent key: only `nil` matches it, not the empty string.
        let emptyOnAbsent = try await client.compareAndSet("key", expecting: "", to: "a", on: 0)
        let nilOnAbsent = try await client.compareAndSet("key", expecting: nil, to: "a", on: 0)
        let nilOnPresent = try await client.compareAndSet("key", expecting: nil, to: "b", on: 1)
        let wrongValue = try await client.compareAndSet("key", expecting: "b", to: "c", on: 2)
        let rightValue = try await client.compareAndSet("key", expecting: "a", to: "c", on: 2)
        #expect(
          [emptyOnAbsent, nilOnAbsent, nilOnPresent, wrongValue, rightValue] == [
            false, true, false, false, true,
          ])
        #expect(try await client.get("key", serializable: false, on: 1) == "c")
      }
    }

    @Test func aPausedMembersRequestsTimeOutAndItAnswersAgainAfterResume() async throws {
      try await withCluster { cluster, client in
        try await client.put("key", "before", on: 0)
        try cluster.pause(2)
        #expect(cluster.status(of: 2) == .paused(pid: try #require(cluster.pid(of: 2))))

        let impatient = EtcdClient(cluster: cluster, timeout: .milliseconds(300))
        let clock = ContinuousClock()
        let sent = clock.now
        let error = await #expect(throws: EtcdClientError.self) {
          try await impatient.get("key", serializable: true, on: 2)
        }
        #expect(error == .timedOut(member: 2, after: .milliseconds(300)))
        // Generous, for a busy machine: the point is that the request did not wait for the resume.
        #expect(clock.now - sent < .seconds(10))

        // Members 0 and 1 are a quorum; if member 2 led, they elect a new leader first.
        try await eventually { () async throws(EtcdClientError) in
          try await client.put("key", "during", on: 0)
        }
        try cluster.resume(2)
        let value = try await eventually { () async throws(EtcdClientError) in
          try await client.get("key", serializable: false, on: 2)
        }
        #expect(value == "during")
      }
    }

    @Test func aKilledMemberRestartsWithItsDataAndSoDoesTheWholeCluster() async throws {
      try await withCluster { cluster, client in
        try await client.put("kept", "1", on: 0)
        let killedPID = try #require(cluster.pid(of: 1))
        try cluster.kill(1)
        #expect(cluster.status(of: 1) == .killed)
        await #expect(throws: EtcdClientError.self) {
          try await client.get("kept", serializable: true, on: 1)
        }
        try await eventually { () async throws(EtcdClientError) in
          try await client.put("missed", "2", on: 0)
        }

        try await cluster.restart(1)
        #expect(try #require(cluster.pid(of: 1)) != killedPID)
        // A restarted member answers its health check (a linearizable read) only once it has
        // caught up, so even its serializable reads see the write it missed.
        #expect(try await client.get("kept", serializable: true, on: 1) == "1")
        #expect(try await client.get("missed", serializable: true, on: 1) == "2")

        // With every member killed, the data can only come back from the data folders.
        for member in cluster.members.indices { try cluster.kill(member) }
        try await withThrowingTaskGroup(of: Void.self) { group in
          for member in cluster.members.indices {
            group.addTask { try await cluster.restart(member, timeout: .seconds(30)) }
          }
          try await group.waitForAll()
        }
        #expect(try await client.get("kept", serializable: false, on: 2) == "1")
        #expect(try await client.get("missed", serializable: false, on: 0) == "2")
      }
    }

    @Test func stopLeavesNoProcessAndNoFolder() async throws {
      try await withCluster { cluster, client in
        try cluster.pause(0)
        try cluster.kill(1)
        let pids = cluster.members.indices.compactMap { cluster.pid(of: $0) }
        let group = getpgid(try #require(pids.first))
        cluster.stop()
        cluster.stop()

        for pid in pids {
          #expect(kill(pid, 0) == -1 && errno == ESRCH, "etcd pid \(pid) is still there")
        }
        // The watchdog led the members' process group: nothing of the group is left.
        #expect(kill(-group, 0) == -1 && errno == ESRCH, "process group \(group) is still there")
        #expect(!FileManager.default.fileExists(atPath: cluster.directory))
        #expect(throws: EtcdClusterError.clusterStopped) { try cluster.pause(2) }
        #expect(cluster.status(of: 0) == .killed)
      }
    }
  }
}
