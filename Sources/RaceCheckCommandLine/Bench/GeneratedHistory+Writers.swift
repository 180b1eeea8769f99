import RaceCheckEngine

extension GeneratedHistory {
  /// Writes key-value events as the lines of Porcupine's `test_data/kv` files: `{:process 0, :type :invoke, :f :get, :key "1", :value nil}`.
  enum KeyValueWriter {
    static func write(_ events: [Event]) -> String {
      var text = ""
      text.reserveCapacity(events.count * 80)
      for event in events {
        // Porcupine's parser knows only :invoke and :ok; these histories have no timeouts.
        let type = event.kind == .invoke ? "invoke" : "ok"
        let function: String
        let key: Int
        var value: String?
        switch event.operation {
        case .get(let own):
          (function, key, value) = ("get", own, event.kind == .invoke ? nil : event.result)
        case .put(let own, let written): (function, key, value) = ("put", own, written)
        case .append(let own, let written): (function, key, value) = ("append", own, written)
        default: preconditionFailure("not a key-value operation: \(event.operation)")
        }
        let shown = value.map { "\"\($0)\"" } ?? "nil"
        text +=
          "{:process \(event.process), :type :\(type), :f :\(function), :key \"\(key)\", :value \(shown)}\n"
      }
      return text
    }
  }

  /// Writes register events as the lines of Jepsen's etcd logs: `INFO  jepsen.util - 2\t:invoke\t:cas\t[2 4]`.
  enum EtcdLogWriter {
    static func write(_ events: [Event]) -> String {
      var text = ""
      text.reserveCapacity(events.count * 40)
      for event in events {
        let function: String
        var value: String
        switch event.operation {
        case .read: (function, value) = ("read", event.result ?? "nil")
        case .write(let written): (function, value) = ("write", String(written))
        case .cas(let expected, let new): (function, value) = ("cas", "[\(expected) \(new)]")
        default: preconditionFailure("not a register operation: \(event.operation)")
        }
        let type: String
        switch event.kind {
        case .invoke:
          type = "invoke"
          if function == "read" { value = "nil" }
        case .ok: type = "ok"
        case .fail: type = "fail"
        case .info:
          type = "info"
          value = ":timed-out"
        }
        text += "INFO  jepsen.util - \(event.process)\t:\(type)\t:\(function)\t\(value)\n"
      }
      return text
    }

    /// Makes a read stale: the first completed read called after a store that was called after the planted write returned, returns the planted value.
    ///
    /// Nothing else stores ``Execution/plantedValue``, so the write of it is the only
    /// producer, and the store returned before the read was called. Events are in time order.
    static func makeOneReadStale(_ events: inout [Event]) {
      let planted = Operation.write(Execution.plantedValue)
      guard
        let written = events.indices.first(where: {
          events[$0].kind == .ok && events[$0].operation == planted
        })
      else { return }
      // Processes whose running operation was invoked after the planted write returned.
      var invokedSince: Set<Int> = []
      var overwritten = false
      var readers: Set<Int> = []
      for index in events.indices.dropFirst(written + 1) {
        let event = events[index]
        switch event.kind {
        case .invoke:
          invokedSince.insert(event.process)
          if overwritten && event.operation == .read { readers.insert(event.process) }
        case .ok where readers.contains(event.process) && event.operation == .read:
          events[index].result = String(Execution.plantedValue)
          return
        case .ok:
          // A completed write, or a cas that succeeded, certainly stored.
          if invokedSince.contains(event.process) && event.operation != .read { overwritten = true }
          invokedSince.remove(event.process)
        case .fail, .info:
          invokedSince.remove(event.process)
          readers.remove(event.process)
        }
      }
    }

    /// Makes the completed read nearest the middle return 5, a value nothing writes.
    static func corruptOneRead(_ events: inout [Event]) {
      let reads = events.indices.filter { events[$0].kind == .ok && events[$0].operation == .read }
      guard !reads.isEmpty else { return }
      events[reads[reads.count / 2]].result = "5"
    }
  }
}
