extension RecordedHistory.Recorder {
  /// A caller's own process, named rather than taken from the pool: one call at a time, which it being noncopyable ensures.
  ///
  /// Its calls are made by the process named `name` in the history. After a call whose
  /// outcome is unknown (`info`) the format has that process call nothing more, so the
  /// client goes on as `name#2`, then `name#3`, …
  ///
  /// ```swift
  /// var alice = try recorder.client(named: "alice")
  /// try alice.record("put", "k", "v") { try client.put("k", "v") }
  /// ```
  public struct Client: ~Copyable, Sendable {
    private let log: EventLog
    /// The name the client was given.
    public let name: String
    /// The process its next call is made by: `name`, or `name#2`, … after an unknown outcome.
    public private(set) var process: String
    private var generation = 1
    private var lastReturn: Int64?

    init(log: EventLog, name: String) {
      self.log = log
      self.name = name
      process = name
    }

    /// Records `operation` with `arguments` around `body`, as `RecordedHistory.Recorder.record(_:_:body:)` does, by this client's process.
    public mutating func record<
      each Argument: ValueConvertible, Result: ValueConvertible, Failure: Error
    >(
      _ operation: String, _ arguments: repeat each Argument,
      body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
      let ticket = call(operation, RecordedHistory.Recorder.values(repeat each arguments))
      do {
        let result = try body()
        end(ticket, .ok, result.historyValue)
        return result
      } catch {
        end(ticket, RecordedHistory.Recorder.status(of: error), .null)
        throw error
      }
    }

    /// Records `operation` with `arguments` around `body`, which returns nothing, by this client's process.
    public mutating func record<each Argument: ValueConvertible, Failure: Error>(
      _ operation: String, _ arguments: repeat each Argument,
      body: () throws(Failure) -> Void
    ) throws(Failure) {
      let ticket = call(operation, RecordedHistory.Recorder.values(repeat each arguments))
      do {
        try body()
        end(ticket, .ok, .null)
      } catch {
        end(ticket, RecordedHistory.Recorder.status(of: error), .null)
        throw error
      }
    }

    /// Records `operation` with `arguments` around the asynchronous `body`, by this client's process.
    public mutating func record<
      each Argument: ValueConvertible, Result: ValueConvertible, Failure: Error
    >(
      _ operation: String, _ arguments: repeat each Argument,
      isolation: isolated (any Actor)? = #isolation,
      body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
      let ticket = call(operation, RecordedHistory.Recorder.values(repeat each arguments))
      do {
        let result = try await body()
        end(ticket, .ok, result.historyValue)
        return result
      } catch {
        end(ticket, RecordedHistory.Recorder.status(of: error), .null)
        throw error
      }
    }

    /// Records `operation` with `arguments` around the asynchronous `body`, which returns nothing, by this client's process.
    public mutating func record<each Argument: ValueConvertible, Failure: Error>(
      _ operation: String, _ arguments: repeat each Argument,
      isolation: isolated (any Actor)? = #isolation,
      body: () async throws(Failure) -> Void
    ) async throws(Failure) {
      let ticket = call(operation, RecordedHistory.Recorder.values(repeat each arguments))
      do {
        try await body()
        end(ticket, .ok, .null)
      } catch {
        end(ticket, RecordedHistory.Recorder.status(of: error), .null)
        throw error
      }
    }

    private func call(_ operation: String, _ arguments: RecordedArguments) -> EventLog.Ticket {
      log.call(operation, arguments, process: .string(process), lastReturn: lastReturn)
    }

    /// Ends the call; after an unknown outcome the client moves to a name no client has.
    private mutating func end(
      _ ticket: EventLog.Ticket, _ status: RecordedHistory.Operation.Status, _ result: Value
    ) {
      let time = log.end(ticket, status: status, result: result)
      guard status == .info else {
        lastReturn = time
        return
      }
      lastReturn = nil
      repeat {
        generation += 1
        process = "\(name)#\(generation)"
      } while !log.claim(process)
    }
  }

  /// A client that records its calls by a process named `name`, which no other client of this recorder may have.
  ///
  /// ```swift
  /// var worker = try recorder.client(named: "worker-1")
  /// ```
  public func client(named name: String) throws(RecordingError) -> Client {
    guard log.claim(name) else { throw .duplicateClient(name) }
    return Client(log: log, name: name)
  }
}
