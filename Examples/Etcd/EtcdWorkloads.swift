import Dispatch
import RaceCheck
import Synchronization

/// The etcd example's workloads: ten clients put and get four keys of a three-member etcd cluster on loopback while one member at a time is paused or killed, checked with the `kv` model.
///
/// `racecheck workload etcd` reads with etcd's default, linearizable reads while members are
/// paused, or killed and started again, and passes.
/// `racecheck workload etcd-serializable` reads with `serializable: true`, which lets a
/// member answer from its own state without asking the others: a member that was paused
/// while the others took writes answers with values they had already replaced, and the
/// check names the stale read. Both need the `etcd` binary (`apt-get install -y etcd-server`).
public enum EtcdWorkloads {
  /// Both workload targets.
  public static let targets: [WorkloadTarget] = [
    target(name: "etcd", serializableReads: false, expectation: .pass),
    target(name: "etcd-serializable", serializableReads: true, expectation: .fail),
  ]

  /// The workload against `cluster`: reads and writes spread over its members, each write a new value, a member faulted for a second after every quiet second.
  ///
  /// With linearizable reads a fault is a pause or a kill (the member started again from
  /// its data a second later), and the history must still be linearizable: a call a killed
  /// member refused failed, one it may have received is unknown. With serializable reads the
  /// faults are pauses: a member that slept through writes serves the stale read the check
  /// must name.
  public static func workload(
    _ cluster: EtcdCluster, serializableReads: Bool
  ) -> Workload<EtcdKeyValueClient, KeyValueModel> {
    let keys = Generator.element(of: ["a", "b", "c", "d"])
    let written = Counter()
    // Distinct values make a stale read provable: a value names the one write that stored it.
    let values = Generator<String>(draw: { _, _ in written.next() })
    let makeClient: @Sendable () -> EtcdKeyValueClient = {
      EtcdKeyValueClient(cluster: cluster, serializableReads: serializableReads)
    }
    let spec = Spec(
      serializableReads ? "etcd-serializable" : "etcd", make: makeClient, model: KeyValueModel()
    ) {
      Operation("get", keys) { (client: EtcdKeyValueClient, key: String) in
        try await client.get(key)
      }
      Operation("put", keys, values) { (client: EtcdKeyValueClient, key: String, value: String) in
        try await client.put(key, value)
      }
    }
    let nemesis =
      serializableReads
      ? Nemesis.pauses(of: cluster.faultTargets, every: .seconds(1), lasting: .seconds(1))
      : Nemesis(
        targets: cluster.faultTargets,
        randomly: [.pause(.seconds(1)), .kill(restartAfter: .seconds(1))], every: .seconds(1))
    return Workload(
      spec,
      configuration: Configuration.Workload(
        clients: 10, limit: .duration(.seconds(20)), operationTimeout: .seconds(5),
        nemesis: nemesis, weights: ["get": 2]))
  }

  private static func target(
    name: String, serializableReads: Bool, expectation: Expectation
  ) -> WorkloadTarget {
    WorkloadTarget(
      name,
      summary:
        "ten clients against a three-member etcd cluster, "
        + (serializableReads
          ? "members paused, serializable reads" : "members paused and killed, linearizable reads"),
      expectation: expectation
    ) { request in
      let cluster = try awaitResult { try await EtcdCluster.start() }
      defer { cluster.stop() }
      return try request.run(workload(cluster, serializableReads: serializableReads))
    }
  }

  /// Runs `operation` from synchronous code, on a task of its own, and waits for its result: a workload target's body is synchronous, and its thread is not one of the cooperative pool's.
  static func awaitResult<Result: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Result
  ) throws -> Result {
    let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
      let result: Swift.Result<Result, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      outcome.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
  }

  /// The values written so far, counted, so that each write stores a value of its own.
  private final class Counter: Sendable {
    private let count = Mutex(0)

    func next() -> String {
      count.withLock { count in
        count += 1
        return String(count)
      }
    }
  }
}

/// The subject of the etcd workloads: a client of the cluster whose calls go to its members in turn, with the `kv` model's `get` and `put`.
public final class EtcdKeyValueClient: Sendable {
  private let client: EtcdClient
  private let members: Int
  private let serializableReads: Bool
  private let turn = Atomic<Int>(0)

  /// A client of `cluster`, reading with `serializable: true` when `serializableReads` is set.
  public init(cluster: EtcdCluster, serializableReads: Bool, timeout: Duration = .seconds(3)) {
    client = EtcdClient(cluster: cluster, timeout: timeout)
    members = cluster.members.count
    self.serializableReads = serializableReads
  }

  private func nextMember() -> Int {
    turn.wrappingAdd(1, ordering: .relaxed).oldValue % members
  }

  /// The key's value, `""` when it has none (the `kv` model's absent key).
  public func get(_ key: String) async throws -> String {
    do {
      return try await client.get(key, serializable: serializableReads, on: nextMember()) ?? ""
    } catch {
      throw Self.recorded(error)
    }
  }

  /// Makes `value` the key's value.
  public func put(_ key: String, _ value: String) async throws {
    do {
      try await client.put(key, value, on: nextMember())
    } catch {
      throw Self.recorded(error)
    }
  }

  /// The error a workload records: a request never sent (a killed member) failed (`fail`); any other left the call unknown (`info`).
  private static func recorded(_ error: EtcdClientError) -> any Error {
    if case .notSent = error { return EtcdRequestNotSent(error) }
    return error
  }
}

/// A request the client never sent, as no connection to the member could be made: it had no effect, and a workload records its call as failed (`fail`) rather than unknown.
public struct EtcdRequestNotSent: RecordedHistory.DefiniteFailure, CustomStringConvertible {
  /// Why no connection was made.
  public var error: EtcdClientError

  /// The failure `error` (``EtcdClientError/notSent(member:reason:)``) proves.
  public init(_ error: EtcdClientError) {
    self.error = error
  }

  public var description: String { error.description }
}

extension EtcdCluster {
  /// Every member as a process a workload's nemesis may pause, kill and restart, through the cluster, which keeps track of each.
  public var faultTargets: [Nemesis.Target] {
    members.indices.map { member in
      Nemesis.Target(
        name: members[member].name,
        pause: { try self.pause(member) }, resume: { try self.resume(member) },
        kill: { try self.kill(member) },
        restart: { try EtcdWorkloads.awaitResult { try await self.restart(member) } })
    }
  }
}
