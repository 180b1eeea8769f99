extension RecordedHistory {
  /// Records the operations a program makes on a service, as a history `racecheck check` reads, cheaply enough to leave on under load.
  ///
  /// Wrap each call to the service in `record(_:_:body:)`: the recorder
  /// notes the call, runs the body, and notes its end with the result. A body that throws
  /// leaves the call's outcome unknown (`info`), unless the error is a ``RecordedHistory/DefiniteFailure``
  /// (`fail`); the error is rethrown either way.
  ///
  /// ```swift
  /// let recorder = try RecordedHistory.Recorder(writingTo: "history.jsonl", model: "kv", meta: .object(["run": "staging"]))
  /// let value = try await recorder.record("get", "k") { try await client.get("k") }
  /// try recorder.record("put", "k", "v") { try client.put("k", "v") }
  /// try recorder.finish()
  /// ```
  ///
  /// The file is the event form of the history file (`history-format.md`): a header line,
  /// then a line at each call and at each end. A background thread writes them every few
  /// milliseconds; the calling thread only appends the event to a buffer. A process killed
  /// mid-run leaves a file `racecheck check` reads, its calls in flight counted as unknown.
  ///
  /// Each call is made by a process numbered from a pool: a call takes a free number and
  /// an `ok` or `fail` end gives it back, while an `info` end retires it (the format has
  /// such a process call nothing more). Threads and tasks need no setup, and the numbers
  /// stay about as many as the calls that ever ran at once. ``client(named:)`` gives a
  /// caller a process of its own name instead.
  public final class Recorder: Sendable {
    @usableFromInline let log: EventLog
    /// The events a file's writer may fall behind before calls wait for it: some 6 MB, 20 ms of
    /// two threads recording flat out.
    static let backlogLimit = 1 << 16
    /// The file's writer; nil for a recorder that keeps its history in memory.
    private let writer: EventFileWriter?
    private let model: String
    private let initial: Value?
    private let meta: Value?

    /// Starts recording to a new file at `path` (an existing one is emptied), whose header names `model`, its `initial` state and `meta`.
    ///
    /// The header is written before this returns, so even a process killed at once leaves a
    /// file that reads as an empty history.
    ///
    /// ```swift
    /// let recorder = try RecordedHistory.Recorder(writingTo: "history.jsonl", model: "kv")
    /// ```
    public init(writingTo path: String, model: String, initial: Value? = nil, meta: Value? = nil)
      throws(RecordingError)
    {
      let names = BuiltInModels.names
      guard names.contains(model) else { throw .unknownModel(model, known: names) }
      self.model = model
      self.initial = initial
      self.meta = meta
      log = EventLog(backlogLimit: Self.backlogLimit)
      writer = try EventFileWriter(
        path: path, header: HistoryEvent.headerLine(model: model, initial: initial, meta: meta),
        log: log)
    }

    /// Starts recording in memory, with no file: ``history`` gives what was recorded so far.
    ///
    /// ```swift
    /// let recorder = RecordedHistory.Recorder(model: "kv")
    /// try recorder.record("put", "k", "v") { store.put("k", "v") }
    /// let verdict = try HistoryChecker().check(try recorder.history)
    /// ```
    public init(model: String, initial: Value? = nil, meta: Value? = nil) {
      self.model = model
      self.initial = initial
      self.meta = meta
      log = EventLog()
      writer = nil
    }

    /// Stops recording and writes, syncs and closes the file; calls recorded after it are not recorded.
    ///
    /// Throws the first write that failed, if one did. A second call does nothing more. A
    /// recorder that is released without it writes what it holds, ignoring failures.
    public func finish() throws(RecordingError) {
      log.close()
      try writer?.finish()
    }

    /// The history recorded so far: each call without its end has an unknown outcome (`info`).
    ///
    /// In memory it is built from the events; for a file, the events so far are written and
    /// the file is read back as `racecheck check` reads it, so its operations cite lines.
    public var history: RecordedHistory {
      get throws(RecordingError) {
        guard let writer else {
          var pairing = HistoryEventPairing(citesLines: false)
          for (index, event) in log.snapshot().enumerated() {
            do {
              try pairing.add(event.historyEvent, line: index + 1)
            } catch {
              preconditionFailure("the recorder appended an inconsistent event: \(error)")
            }
          }
          return RecordedHistory(
            model: model, initial: initial, meta: meta, operations: pairing.finish())
        }
        writer.drain()
        do {
          return try RecordedHistory(contentsOf: writer.path)
        } catch {
          throw .unreadable(error)
        }
      }
    }

    /// Writes every event recorded so far to the file before returning, without waiting for the thread; nothing in memory.
    package func flush() {
      writer?.drain()
    }

    deinit {
      log.close()
      try? writer?.finish()
    }
  }
}
