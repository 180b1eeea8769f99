import Dispatch
import Foundation
import RaceCheck
import RaceCheckRecorder
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RaceCheckTestSuite {
  /// A recording cut off mid-run, as a killed process leaves it, checked by `racecheck check` end to end.
  ///
  /// The recorder writes a kv history while a `put` is still running and a completed `get`
  /// has already seen its value; the file is taken at that moment, with its last line cut in
  /// half as a write interrupted by the kill would leave it. `racecheck check` must read it as
  /// it is, count both calls without an end as of unknown outcome, and find the store correct.
  @Suite struct RecorderCrashTests {
    final class Store: Sendable {
      private let values = Mutex<[String: String]>([:])
      func get(_ key: String) -> String { values.withLock { $0[key] ?? "" } }
      func put(_ key: String, _ value: String) { values.withLock { $0[key] = value } }
    }

    @Test func crashedRecordingIsCheckedWithItsOpenCallsUnknown() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let (path, crashed) = (folder.path + "/history.jsonl", folder.path + "/crashed.jsonl")
      let recorder = try RecordedHistory.Recorder(writingTo: path, model: "kv")
      let store = Store()
      let stored = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      let ended = DispatchSemaphore(value: 0)
      // A put that has stored its value but not returned when the process dies.
      let slowPut = Thread {
        recorder.record("put", "a", "y") {
          store.put("a", "y")
          stored.signal()
          release.wait()
        }
        ended.signal()
      }
      slowPut.start()
      stored.wait()
      let seen = recorder.record("get", "a") { store.get("a") }
      #expect(seen == "y")
      recorder.record("put", "b", "x") { store.put("b", "x") }
      recorder.flush()

      // The file as a kill now would leave it: the last line, the second put's end, cut short.
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      let lastLine = try #require(bytes.dropLast().lastIndex(of: UInt8(ascii: "\n"))) + 1
      let torn = bytes.prefix(lastLine + (bytes.count - lastLine) / 2)
      #expect(torn.last != UInt8(ascii: "\n"))
      try torn.write(to: URL(fileURLWithPath: crashed))
      release.signal()
      ended.wait()
      try recorder.finish()

      let text = CLI.invoke(["check", crashed])
      #expect(text.status == 0)
      #expect(
        text.outputLines.first?.hasPrefix("\(crashed): linearizable under the kv model") == true)
      let json = CLI.invoke(["check", crashed, "--json"])
      #expect(json.status == 0)
      #expect(json.jsonObject?["verdict"] as? String == "linearizable")
      let history = try RecordedHistory(contentsOf: crashed)
      #expect(history.operations.map(\.name) == ["put", "get", "put"])
      #expect(history.operations.map(\.status) == [.info, .ok, .info])
      #expect(history.operations.map(\.source.line) == [2, 3, 5])

      // The whole recording, finished once the put returned, has every call ended.
      let whole = try RecordedHistory(contentsOf: path)
      #expect(whole.operations.map(\.status) == [.ok, .ok, .ok])
      #expect(CLI.invoke(["check", path]).status == 0)
    }

    @Test func processKilledWhileRecordingLeavesAFileThatChecks() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let path = folder.path + "/killed.jsonl"
      // racecheck-probe records from three threads and sends itself SIGKILL while they record.
      let devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
      defer { close(devNull) }
      let child = try ChildProcess.spawn(
        executable: try BuildProducts.path(of: "racecheck-probe"),
        arguments: ["record-and-die", path], fileDescriptors: [1: devNull, 2: devNull])
      #expect(try child.wait() == .signaled(SIGKILL))

      let result = CLI.invoke(["check", path])
      #expect(result.status == 0, "\(result.output)\n\(result.errors)")
      let history = try RecordedHistory(contentsOf: path)
      // The put that never returned is of unknown outcome, and the get that saw it is there.
      let held = history.operations.filter { $0.arguments.first == "held" }
      #expect(held.map(\.name) == ["put", "get"])
      #expect(held.map(\.status) == [.info, .ok])
      #expect(held.last?.result == "y")
      #expect(history.operations.count > 2)
    }
  }
}
