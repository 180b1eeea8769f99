import Foundation
import Synchronization
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// A workload runs many clients against one subject, records every call — unknown outcomes included — and checks the one history.
  @Suite struct WorkloadTests {
    /// A key-value store behind one lock: correct.
    final class LockedStore: Sendable {
      let values = Mutex<[String: String]>([:])
      func get(_ key: String) -> String { values.withLock { $0[key, default: ""] } }
      func put(_ key: String, _ value: String) { values.withLock { $0[key] = value } }
    }

    /// A store whose append reads, then writes in a second step: concurrent appends lose updates.
    ///
    /// The first append waits, between its read and its write, until a second append has read
    /// too, and the second writes only after the first did: both write over the same old value,
    /// and the second's write hides the first's suffix. Every later append waits until then,
    /// so the other clients cannot spend the workload's calls while the two wait: the lost
    /// update is seen by the reads that follow, on every run, however the clients get the
    /// cores. (The second comes from another client: the first's client is waiting.)
    final class SplitAppendStore: Sendable {
      let values = Mutex<[String: String]>([:])
      let appends = Atomic<Int>(0)
      let secondAppendRead = DispatchSemaphore(value: 0)
      let firstAppendWrote = DispatchSemaphore(value: 0)
      /// Left once the second append wrote: every later append waits for it.
      let lostUpdateWritten = DispatchGroup()

      init() { lostUpdateWritten.enter() }

      func get(_ key: String) -> String { values.withLock { $0[key, default: ""] } }
      func append(_ key: String, _ suffix: String) {
        let turn = appends.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
        if turn > 2 { lostUpdateWritten.wait() }
        let old = get(key)
        switch turn {
        case 1:
          secondAppendRead.wait()
          values.withLock { $0[key] = old + suffix }
          firstAppendWrote.signal()
        case 2:
          secondAppendRead.signal()
          firstAppendWrote.wait()
          values.withLock { $0[key] = old + suffix }
          lostUpdateWritten.leave()
        default:
          values.withLock { $0[key] = old + suffix }
        }
      }
    }

    /// A store whose every third put takes effect and then throws, as a client whose connection dropped after the server applied the write.
    final class FlakyStore: Sendable {
      struct ConnectionLost: Error {}
      let values = Mutex<[String: String]>([:])
      let puts = Atomic<Int>(0)
      func get(_ key: String) -> String { values.withLock { $0[key, default: ""] } }
      func put(_ key: String, _ value: String) throws {
        values.withLock { $0[key] = value }
        if puts.wrappingAdd(1, ordering: .relaxed).newValue % 3 == 0 { throw ConnectionLost() }
      }
    }

    /// A store whose put of "slow" takes far longer than the workload's operation timeout.
    final class SlowStore: Sendable {
      let values = Mutex<[String: String]>([:])
      func get(_ key: String) -> String { values.withLock { $0[key, default: ""] } }
      func put(_ key: String, _ value: String) {
        if value == "slow" { usleep(400_000) }
        values.withLock { $0[key] = value }
      }
    }

    actor ActorStore {
      var values: [String: String] = [:]
      func get(_ key: String) async -> String {
        await Task.yield()
        return values[key, default: ""]
      }
      func put(_ key: String, _ value: String) async {
        await Task.yield()
        values[key] = value
      }
    }

    static let keys = Generator.element(of: ["a", "b", "c"])
    static let values = Generator.int(in: 0...999).map({ String($0) }, inverse: { Int($0) })

    static let lockedSpec = Spec("LockedStore", make: LockedStore.init, model: KeyValueModel()) {
      Operation("get", Self.keys) { (store: LockedStore, key: String) in store.get(key) }
      Operation("put", Self.keys, Self.values) { (store: LockedStore, key: String, value: String) in
        store.put(key, value)
      }
    }

    @Test func aCorrectStorePassesWithEveryCallRecorded() throws {
      let report = try Workload(
        Self.lockedSpec,
        configuration: Configuration.Workload(clients: 4, limit: .operations(4_000), seed: 7)
      )
      .run()
      #expect(report.verdict.verdict == .linearizable)
      #expect(report.history.operations.count == 4_000)
      #expect(report.unknownOperations == 0)
      #expect(report.history.model == "kv")
      // Which clients made calls is the cores' choice: on a busy machine one may finish its
      // share of the calls before another runs. Each call is a client's, and one made calls.
      let processes = Set(report.history.operations.map(\.process))
      #expect(!processes.isEmpty && processes.isSubset(of: [0, 1, 2, 3]))
    }

    @Test func lostUpdatesAreFound() throws {
      let spec = Spec("SplitAppendStore", make: SplitAppendStore.init, model: KeyValueModel()) {
        Operation("get", Generator.element(of: ["a"])) { (store: SplitAppendStore, key: String) in
          store.get(key)
        }
        Operation("append", Generator.element(of: ["a"]), Generator.element(of: ["x", "y", "z"])) {
          (store: SplitAppendStore, key: String, suffix: String) in store.append(key, suffix)
        }
      }
      let report = try Workload(
        spec, configuration: Configuration.Workload(clients: 4, limit: .operations(2_000), seed: 3)
      ).run()
      #expect(report.verdict.verdict == .notLinearizable)
      #expect(report.lines.joined(separator: "\n").contains("NOT linearizable under the kv model"))
    }

    /// Calls that threw are unknown: they may have taken effect, so reads that saw them are explained.
    @Test func callsThatThrewAreUnknownNotBugs() throws {
      let spec = Spec("FlakyStore", make: FlakyStore.init, model: KeyValueModel()) {
        Operation("get", Self.keys) { (store: FlakyStore, key: String) in store.get(key) }
        Operation("put", Self.keys, Self.values) {
          (store: FlakyStore, key: String, value: String) in
          try store.put(key, value)
        }
      }
      // One client at a time: the history is then the seed's alone, and so is the checker's
      // search. With clients racing, an unlucky history of many unknown puts that no read saw
      // can make the search exponential (a run once searched for more than ten minutes).
      let report = try Workload(
        spec, configuration: Configuration.Workload(clients: 1, limit: .operations(3_000), seed: 5)
      ).run()
      #expect(report.unknownOperations > 100)
      #expect(report.verdict.verdict == .linearizable)
      // Each unknown call retires its process: no process calls again after one.
      var retired: Set<Value> = []
      for operation in report.history.operations.sorted(by: { $0.call < $1.call }) {
        #expect(!retired.contains(operation.process))
        if operation.status == .info { retired.insert(operation.process) }
      }
      // The same history with those calls counted as failed (no effect) has no explanation:
      // the reads saw their values. So "unknown" is what made the service pass.
      var asFailed = report.history
      for index in asFailed.operations.indices where asFailed.operations[index].status == .info {
        asFailed.operations[index].status = .fail
        asFailed.operations[index].return = asFailed.operations[index].call
      }
      #expect(try HistoryChecker().check(asFailed).verdict == .notLinearizable)
    }

    @Test func aCallThatOutlivesTheTimeoutIsUnknownAndItsClientGoesOn() throws {
      let spec = Spec("SlowStore", make: SlowStore.init, model: KeyValueModel()) {
        Operation("get", Self.keys) { (store: SlowStore, key: String) in store.get(key) }
        Operation("put", Self.keys, Generator.element(of: ["1", "2", "3", "slow"])) {
          (store: SlowStore, key: String, value: String) in store.put(key, value)
        }
      }
      let report = try Workload(
        spec,
        configuration: Configuration.Workload(
          clients: 2, limit: .operations(400), operationTimeout: .milliseconds(100), seed: 2)
      )
      .run()
      let unknown = report.history.operations.filter { $0.status == .info }
      #expect(!unknown.isEmpty)
      #expect(unknown.allSatisfy { $0.arguments.last == "slow" && $0.return == nil })
      #expect(report.history.operations.count == 400)
      #expect(report.verdict.verdict == .linearizable)
    }

    @Test func asyncOperationsRunInTasks() throws {
      let spec = Spec("ActorStore", make: ActorStore.init, model: KeyValueModel()) {
        Operation("get", Self.keys) { (store: ActorStore, key: String) in await store.get(key) }
        Operation("put", Self.keys, Self.values) {
          (store: ActorStore, key: String, value: String) in
          await store.put(key, value)
        }
      }
      let report = try Workload(
        spec, configuration: Configuration.Workload(clients: 4, limit: .operations(2_000))
      ).run()
      #expect(report.verdict.verdict == .linearizable)
      #expect(report.history.operations.count == 2_000)
    }

    @Test func anInterruptionStopsTheClientsAndTheHistoryIsChecked() throws {
      let interruption = Interruption.never
      let spec = Self.lockedSpec
      let report = try Workload(
        spec, configuration: Configuration.Workload(clients: 2, limit: .duration(.seconds(60)))
      ).run(
        interruption: interruption,
        progress: { progress in
          if progress.operations > 0 { interruption.raiseForTesting(SIGINT) }
        })
      #expect(report.stoppedBy == SIGINT)
      #expect(report.elapsed < .seconds(60))
      #expect(!report.history.operations.isEmpty)
      #expect(report.verdict.verdict == .linearizable)
    }

    @Test func aNemesisPausesAndResumesTheProcessesItWasGiven() throws {
      let sleeper = try ChildProcess.spawn(executable: "/bin/sleep", arguments: ["30"])
      defer {
        try? sleeper.kill(SIGKILL)
        _ = try? sleeper.wait()
      }
      let nemesis = Nemesis(
        targets: [Nemesis.Target(name: "sleeper", pid: sleeper.id)],
        schedule: [
          .init(at: .milliseconds(50), .pause(.milliseconds(100)), target: "sleeper"),
          .init(at: .milliseconds(200), .pause(.seconds(60)), target: "sleeper"),
        ])
      let report = try Workload(
        Self.lockedSpec,
        configuration: Configuration.Workload(
          clients: 2, limit: .duration(.milliseconds(500)), nemesis: nemesis)
      )
      .run()
      let faults = report.history.faults
      #expect(faults.count == 2)
      #expect(faults.allSatisfy { $0.kind == .pause && $0.target == "sleeper" })
      #expect(faults.allSatisfy { fault in fault.end.map { $0 > fault.start } ?? false })
      // The second pause outlasts the run: it is healed at the stop, not left on.
      #expect(try Self.state(of: sleeper.id) != "T")
      #expect(report.lines.contains { $0.contains("pause sleeper from") })
    }

    /// A sleeping child that a nemesis may kill, and its owner start again.
    final class Restartable: Sendable {
      let child = Mutex<ChildProcess?>(nil)
      let starts = Atomic<Int>(0)

      func start() throws {
        let process = try ChildProcess.spawn(executable: "/bin/sleep", arguments: ["30"])
        starts.add(1, ordering: .relaxed)
        let old = child.withLock { child in
          defer { child = process }
          return child
        }
        _ = try? old?.wait()  // reaps the killed one
      }

      func stop() {
        guard let process = child.withLock({ $0 }) else { return }
        try? process.kill(SIGKILL)
        _ = try? process.wait()
      }

      var target: Nemesis.Target {
        Nemesis.Target(name: "sleeper", pid: { self.child.withLock { $0?.id } }, restart: start)
      }
    }

    @Test func aKilledProcessIsStartedAgainByItsOwner() throws {
      let sleeper = Restartable()
      try sleeper.start()
      defer { sleeper.stop() }
      let first = try #require(sleeper.child.withLock { $0?.id })
      let nemesis = Nemesis(
        targets: [sleeper.target],
        schedule: [
          .init(at: .milliseconds(50), .kill(restartAfter: .milliseconds(100)), target: "sleeper")
        ])
      let report = try Workload(
        Self.lockedSpec,
        configuration: Configuration.Workload(
          clients: 1, limit: .duration(.milliseconds(400)), nemesis: nemesis)
      )
      .run()
      #expect(report.history.faults.map(\.kind) == [.kill])
      #expect(report.history.faults.first?.end != nil)
      #expect(sleeper.starts.load(ordering: .relaxed) == 2)
      let second = try #require(sleeper.child.withLock { $0?.id })
      #expect(second != first)
      #expect(kill(second, 0) == 0)
    }

    @Test func aKillNeedsAWayToRestart() {
      let nemesis = Nemesis.kills(
        of: [Nemesis.Target(name: "server", pid: 1)], every: .seconds(1),
        restartingAfter: .seconds(1))
      #expect(throws: WorkloadError.self) {
        try Workload(
          Self.lockedSpec,
          configuration: Configuration.Workload(clients: 1, limit: .operations(1), nemesis: nemesis)
        ).run()
      }
    }

    @Test func operationsOutsideTheModelsVocabularyAreRejected() {
      let spec = Spec("Counted", make: LockedStore.init, model: KeyValueModel()) {
        Operation("size") { (store: LockedStore) in
          store.get("a").count
        } model: {
          (model: inout KeyValueModel) in
          model.values["a", default: ""].count
        }
      }
      #expect {
        try Workload(spec, configuration: Configuration.Workload(clients: 1, limit: .operations(1)))
          .run()
      } throws: { error in
        "\(error)".contains(
          "operation 'size' is not of the kv model's vocabulary (get, put, append)")
      }
    }

    /// The state letter of `/proc/PID/stat`: `T` while stopped.
    static func state(of pid: pid_t) throws -> String {
      let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
      let afterName = stat[stat.range(of: ") ")!.upperBound...]
      return String(afterName.prefix(1))
    }
  }
}
