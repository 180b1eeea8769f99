import Dispatch
import Foundation
import RaceCheck
import RaceCheckRecorder
import Synchronization
import Testing

// RecordedHistory.Recorder: what it writes reads back as what was recorded, processes come
// from a pool and are retired after an unknown outcome, and many threads recording at once
// leave a complete history that a correct store passes.

extension UnitTestSuite {
  @Suite struct RecorderTests {
    /// A kv store behind a lock: linearizable, so every history recorded of it must pass.
    final class LockedStore: Sendable {
      private let values = Mutex<[String: String]>([:])
      func get(_ key: String) -> String { values.withLock { $0[key] ?? "" } }
      func put(_ key: String, _ value: String) { values.withLock { $0[key] = value } }
      func append(_ key: String, _ value: String) {
        values.withLock { $0[key, default: ""] += value }
      }
    }

    struct Timeout: Error {}
    struct Refused: Error, RecordedHistory.DefiniteFailure {}

    /// A path in the temporary folder, removed when the test ends.
    final class TemporaryFile {
      let path =
        FileManager.default.temporaryDirectory.path
        + "/racecheck-recorder-\(UUID().uuidString).jsonl"
      deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Records one of each kind of end: a result, none, a definite failure, an unknown outcome.
    static func recordOneOfEach(_ recorder: RecordedHistory.Recorder, _ store: LockedStore) {
      recorder.record("put", "a", "x") { store.put("a", "x") }
      let value = recorder.record("get", "a") { store.get("a") }
      #expect(value == "x")
      #expect(throws: Refused.self) { try recorder.record("put", "a", "y") { throw Refused() } }
      #expect(throws: Timeout.self) {
        try recorder.record("append", "a", "z") { () throws(Timeout) in
          store.append("a", "z")
          throw Timeout()
        }
      }
      _ = recorder.record("get", "a") { store.get("a") }
    }

    /// The operations without their times and sources, which differ from run to run.
    static func shape(_ history: RecordedHistory) -> [String] {
      history.operations.map {
        "\($0.process) \($0.name)(\($0.arguments.map(\.description).joined(separator: ", "))) → \($0.result) \($0.status)"
      }
    }

    static let expectedShape = [
      #"0 put("a", "x") → null ok"#, #"0 get("a") → "x" ok"#, #"0 put("a", "y") → null fail"#,
      #"0 append("a", "z") → null info"#, #"1 get("a") → "xz" ok"#,
    ]

    @Test func fileReadsBackAsTheOperationsRecorded() throws {
      let file = TemporaryFile()
      let recorder = try RecordedHistory.Recorder(
        writingTo: file.path, model: "kv", meta: .object(["run": "unit"]))
      Self.recordOneOfEach(recorder, LockedStore())
      try recorder.finish()
      let history = try RecordedHistory(contentsOf: file.path)
      #expect(history.model == "kv" && history.meta == .object(["run": "unit"]))
      #expect(Self.shape(history) == Self.expectedShape)
      // Each call cites its line, and its end's: 2 and 3 for the first; the info one ends on 9.
      #expect(history.operations[0].source == .event(invocation: 2, completion: 3))
      #expect(history.operations[3].source == .event(invocation: 8, completion: 9))
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test func memoryHistoryHasTheSameOperationsAsTheFile() throws {
      let file = TemporaryFile()
      let onFile = try RecordedHistory.Recorder(writingTo: file.path, model: "kv")
      let inMemory = RecordedHistory.Recorder(model: "kv")
      Self.recordOneOfEach(onFile, LockedStore())
      Self.recordOneOfEach(inMemory, LockedStore())
      #expect(Self.shape(try inMemory.history) == Self.shape(try onFile.history))
      #expect(try inMemory.history.operations.allSatisfy { $0.source == .unknown })
      try onFile.finish()
    }

    @Test func argumentsOfEveryArityAreRecordedInOrder() async throws {
      let file = TemporaryFile()
      let recorder = try RecordedHistory.Recorder(writingTo: file.path, model: "kv")
      _ = recorder.record("count") { 0 }
      recorder.record("get", "a") {}
      recorder.record("put", "a", 1) {}
      _ = recorder.record("cas", "a", 1, 2) { true }
      recorder.record("many", 1, "two", 3.5, nil as Int?) {}
      await recorder.record("async", "a", "b", "c") { await Task.yield() }
      try recorder.finish()
      let history = try RecordedHistory(contentsOf: file.path)
      #expect(
        history.operations.map(\.arguments) == [
          [], ["a"], ["a", 1], ["a", 1, 2], [1, "two", .double(3.5), nil], ["a", "b", "c"],
        ])
      #expect(history.operations.map(\.result) == [0, nil, nil, true, nil, nil])
      #expect(try recorder.history.operations.count == 6)
    }

    @Test func callsAreTimedInOrderOnTheMonotonicClock() throws {
      let recorder = RecordedHistory.Recorder(model: "kv")
      Self.recordOneOfEach(recorder, LockedStore())
      let operations = try recorder.history.operations
      for (earlier, later) in zip(operations, operations.dropFirst()) {
        #expect(earlier.return.map { $0 < later.call } ?? true)
      }
      #expect(
        operations.allSatisfy { operation in
          operation.return.map { $0 >= operation.call } ?? (operation.status == .info)
        })
    }

    @Test func processesAreTakenFromThePoolAndRetiredAfterAnUnknownOutcome() throws {
      let recorder = RecordedHistory.Recorder(model: "kv")
      recorder.record("put", "a", "1") {}
      recorder.record("put", "a", "2") {}
      _ = try? recorder.record("put", "a", "3") { throw Timeout() }
      recorder.record("put", "a", "4") {}
      // A call made inside another is concurrent with it: it takes a second number.
      recorder.record("put", "a", "5") { recorder.record("put", "b", "6") {} }
      // The most recently freed number is taken first: the outer call's.
      _ = try? recorder.record("put", "a", "7") { throw Refused() }
      recorder.record("put", "a", "8") {}
      let processes = try recorder.history.operations.map(\.process)
      #expect(processes == [0, 0, 0, 1, 1, 2, 1, 1])
    }

    @Test func clientRecordsUnderItsNameAndMovesOnAfterAnUnknownOutcome() throws {
      let recorder = RecordedHistory.Recorder(model: "kv")
      var alice = try recorder.client(named: "alice")
      alice.record("put", "a", "1") {}
      _ = try? alice.record("put", "a", "2") { throw Timeout() }
      alice.record("put", "a", "3") {}
      #expect(alice.process == "alice#2")
      #expect(throws: RecordedHistory.Recorder.RecordingError.duplicateClient("alice")) {
        _ = try recorder.client(named: "alice")
      }
      let operations = try recorder.history.operations
      #expect(operations.map(\.process) == ["alice", "alice", "alice#2"])
      #expect(operations.map(\.status) == [.ok, .info, .ok])
    }

    @Test func asyncBodyIsRecordedWithItsResult() async throws {
      let recorder = RecordedHistory.Recorder(model: "kv")
      let store = LockedStore()
      await recorder.record("put", "a", "x") {
        await Task.yield()
        store.put("a", "x")
      }
      let value = await recorder.record("get", "a") {
        await Task.yield()
        return store.get("a")
      }
      #expect(value == "x")
      #expect(
        try Self.shape(recorder.history) == [
          #"0 put("a", "x") → null ok"#, #"0 get("a") → "x" ok"#,
        ])
    }

    @Test func asyncCallsEndingOnOtherThreadsReadBackInOrder() async throws {
      // A task resumes on any thread of the pool, so a call's end is often appended to
      // another thread's shard than its call: the file must still have each call first.
      let file = TemporaryFile()
      let recorder = try RecordedHistory.Recorder(writingTo: file.path, model: "kv")
      let store = LockedStore()
      await withTaskGroup(of: Void.self) { group in
        for task in 0..<8 {
          group.addTask {
            for index in 0..<100 {
              let value = "\(task)-\(index)"
              await recorder.record("put", "k", value) {
                await Task.yield()
                store.put("k", value)
              }
              _ = await recorder.record("get", "k") {
                await Task.yield()
                return store.get("k")
              }
            }
          }
        }
      }
      try recorder.finish()
      let history = try RecordedHistory(contentsOf: file.path)
      #expect(history.operations.count == 1600)
      #expect(history.operations.allSatisfy { $0.status == .ok })
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test func callInFlightIsUnknownInTheHistorySoFar() throws {
      let recorder = RecordedHistory.Recorder(model: "kv")
      var during: RecordedHistory?
      try recorder.record("put", "a", "x") { during = try recorder.history }
      #expect(during?.operations.count == 1 && during?.operations[0].status == .info)
      #expect(try recorder.history.operations[0].status == .ok)
    }

    @Test func callsAfterFinishAreNotRecorded() throws {
      let file = TemporaryFile()
      let recorder = try RecordedHistory.Recorder(writingTo: file.path, model: "kv")
      recorder.record("put", "a", "x") {}
      try recorder.finish()
      recorder.record("put", "a", "y") {}
      try recorder.finish()
      #expect(try RecordedHistory(contentsOf: file.path).operations.count == 1)
    }

    @Test func unknownModelIsRefusedBeforeAFileIsMade() throws {
      let file = TemporaryFile()
      #expect(throws: RecordedHistory.Recorder.RecordingError.self) {
        _ = try RecordedHistory.Recorder(writingTo: file.path, model: "tree")
      }
      #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func releasedRecorderWritesWhatItHeld() throws {
      let file = TemporaryFile()
      do {
        let recorder = try RecordedHistory.Recorder(writingTo: file.path, model: "kv")
        recorder.record("put", "a", "x") {}
      }
      #expect(try RecordedHistory(contentsOf: file.path).operations.count == 1)
    }

    @Test func eightThreadsRecordingAtOnceLeaveACompleteLinearizableHistory() throws {
      let file = TemporaryFile()
      let recorder = try RecordedHistory.Recorder(writingTo: file.path, model: "kv")
      let store = LockedStore()
      let (threads, perThread) = (8, 1000)
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        var random = SplitMix64(seed: UInt64(thread))
        for index in 0..<perThread {
          let key = "k\(random.next() % 4)"
          if random.next() % 2 == 0 {
            let value = "\(thread)-\(index)"
            recorder.record("put", key, value) { store.put(key, value) }
          } else {
            _ = recorder.record("get", key) { store.get(key) }
          }
        }
      }
      try recorder.finish()
      let history = try RecordedHistory(contentsOf: file.path)
      #expect(history.operations.count == threads * perThread)
      #expect(history.operations.allSatisfy { $0.status == .ok })
      // No more processes than calls ever ran at once, which is at most the threads.
      #expect(Set(history.operations.map(\.process)).count <= threads)
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }
  }
}
