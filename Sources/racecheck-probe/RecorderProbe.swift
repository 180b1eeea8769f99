import Dispatch
import Foundation
import RaceCheckRecorder
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `racecheck-probe record-and-die FILE`: records a kv history into FILE from three threads, then kills itself with SIGKILL while they record.
///
/// The recorder-crash test checks what the kill leaves. One thread's `put("held", "y")`
/// stores its value and never returns, and a `get` that saw the value is written before the
/// kill, so the file can only be linearizable if the open `put` counts as of unknown
/// outcome. Two more threads keep recording, each call in flight most of the time, so that
/// the kill lands among their calls and the writer's batches.
enum RecorderProbe {
  static let name = "record-and-die"

  /// A kv store behind a lock: linearizable, so only a misread file can fail its check.
  final class Store: Sendable {
    private let values = Mutex<[String: String]>([:])
    func get(_ key: String) -> String { values.withLock { $0[key] ?? "" } }
    func put(_ key: String, _ value: String) { values.withLock { $0[key] = value } }
  }

  static func run(path: String) -> Never {
    let recorder: RecordedHistory.Recorder
    do {
      recorder = try RecordedHistory.Recorder(
        writingTo: path, model: "kv", meta: .object(["probe": .string(name)]))
    } catch {
      Probe.fail("\(error)", status: 70)
    }
    let store = Store()
    for thread in 0..<2 {
      Thread {
        var index = 0
        while true {
          let key = "k\(index % 3)"
          if index % 2 == 0 {
            let value = "\(thread)-\(index)"
            recorder.record("put", key, value) {
              store.put(key, value)
              usleep(50)
            }
          } else {
            _ = recorder.record("get", key) {
              defer { usleep(50) }
              return store.get(key)
            }
          }
          index += 1
        }
      }.start()
    }
    let stored = DispatchSemaphore(value: 0)
    Thread {
      recorder.record("put", "held", "y") {
        store.put("held", "y")
        stored.signal()
        while true { pause() }
      }
    }.start()
    stored.wait()
    _ = recorder.record("get", "held") { store.get("held") }
    recorder.flush()
    usleep(20_000)
    kill(getpid(), SIGKILL)
    Probe.fail("SIGKILL did not end the process", status: 70)
  }
}
