import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The events recorded and not yet written, with the ids and the pool of process numbers: what a calling thread touches.
///
/// A call or an end takes the lock once, to append one event and take or give back a
/// process number; nothing is encoded or written here. The writer swaps the whole array out
/// (``take(into:)``), so the calling threads' appends keep the order in which they happened,
/// and the file is always a prefix of that order: an end written means its call, and every
/// event before it, is written too.
@usableFromInline
final class EventLog: Sendable {
  /// What a call took, which its end gives back.
  @usableFromInline
  struct Ticket: Sendable {
    /// The call's id; nil when the log was closed and nothing is recorded.
    var id: Int?
    /// The process number from the pool, or nil for a client's own process.
    var pooledProcess: Int?
    /// The time recorded for the call, which the end's is never before.
    var call: Int64
  }

  /// A process number back in the pool, and when its last call returned.
  private struct FreeProcess {
    var process: Int
    var lastReturn: Int64
  }

  private struct State {
    var events: [RecordedEvent] = []
    var nextID = 0
    /// Numbers whose last call ended `ok` or `fail`, the most recent last: a call takes the last.
    var freeProcesses: [FreeProcess] = []
    var nextProcess = 0
    /// The clients' process names, each used once.
    var clientNames: Set<String> = []
    var isClosed = false
  }

  private let state = Mutex(State())
  /// The events not yet taken past which a call waits for the writer; nil when nothing takes them (in memory).
  private let backlogLimit: Int?

  /// The events the buffer has room for from the start, so that a steady rate of calls never grows it.
  static let initialCapacity = 8192

  /// Creates an empty log; with a `backlogLimit`, a call waits while that many events are not yet written.
  init(backlogLimit: Int? = nil) {
    self.backlogLimit = backlogLimit
    state.withLock { $0.events.reserveCapacity(Self.initialCapacity) }
  }

  /// Appends a call by a process from the pool: the last freed number, or a new one when none is free.
  ///
  /// A reused number's call is recorded after its previous return even when the clock
  /// reads the same nanosecond twice, as the format asks of a process.
  @usableFromInline
  func call(_ name: String, _ arguments: consuming RecordedArguments) -> Ticket {
    while true {
      let now = MonotonicInstant.now().nanoseconds
      let ticket = state.withLock { state -> Ticket? in
        guard !state.isClosed else { return Ticket(id: nil, pooledProcess: nil, call: now) }
        guard !isBacklogged(state) else { return nil }
        let id = state.nextID
        state.nextID += 1
        let process: Int
        var time = now
        if let free = state.freeProcesses.popLast() {
          process = free.process
          time = max(now, free.lastReturn &+ 1)
        } else {
          process = state.nextProcess
          state.nextProcess += 1
        }
        state.events.append(
          RecordedEvent(
            id: id,
            kind: .call(process: .int(process), name: name, arguments: arguments, time: time)))
        return Ticket(id: id, pooledProcess: process, call: time)
      }
      if let ticket { return ticket }
      waitForWriter()
    }
  }

  /// Appends a call by a client's own process, which last returned at `lastReturn`.
  func call(
    _ name: String, _ arguments: consuming RecordedArguments, process: Value, lastReturn: Int64?
  ) -> Ticket {
    while true {
      let now = MonotonicInstant.now().nanoseconds
      let time = lastReturn.map { max(now, $0 &+ 1) } ?? now
      let ticket = state.withLock { state -> Ticket? in
        guard !state.isClosed else { return Ticket(id: nil, pooledProcess: nil, call: time) }
        guard !isBacklogged(state) else { return nil }
        let id = state.nextID
        state.nextID += 1
        state.events.append(
          RecordedEvent(
            id: id,
            kind: .call(process: process, name: name, arguments: arguments, time: time)))
        return Ticket(id: id, pooledProcess: nil, call: time)
      }
      if let ticket { return ticket }
      waitForWriter()
    }
  }

  /// Whether the writer is ``backlogLimit`` events behind, so that a call waits rather than fill memory faster than the disk empties it.
  ///
  /// It is read in the call's own critical section, at no extra cost. Ends never wait, so
  /// a call in flight always ends.
  @inline(__always)
  private func isBacklogged(_ state: borrowing State) -> Bool {
    guard let backlogLimit else { return false }
    return state.events.count >= backlogLimit
  }

  /// Sleeps a little while the writer catches up.
  private func waitForWriter() {
    usleep(100)
  }

  /// Appends the end of `ticket`'s call and returns the time recorded for it; an `info` end retires a pooled process.
  @usableFromInline
  @discardableResult
  func end(
    _ ticket: Ticket, status: RecordedHistory.Operation.Status, result: consuming Value
  ) -> Int64 {
    let time = max(MonotonicInstant.now().nanoseconds, ticket.call)
    guard let id = ticket.id else { return time }
    state.withLock { state in
      guard !state.isClosed else { return }
      state.events.append(
        RecordedEvent(
          id: id, kind: .end(status: status, time: status == .info ? nil : time, result: result)))
      if status != .info, let process = ticket.pooledProcess {
        state.freeProcesses.append(FreeProcess(process: process, lastReturn: time))
      }
    }
    return time
  }

  /// Claims `name` for a client's process; false when another client already has it.
  func claim(_ name: String) -> Bool {
    state.withLock { $0.clientNames.insert(name).inserted }
  }

  /// Swaps the events appended so far with `events`, which should be empty: the writer's batch.
  func take(into events: inout [RecordedEvent]) {
    state.withLock { swap(&$0.events, &events) }
  }

  /// A copy of every event not yet taken.
  func snapshot() -> [RecordedEvent] {
    state.withLock { Array($0.events) }
  }

  /// Stops recording: calls and ends from now on append nothing.
  func close() {
    state.withLock { $0.isClosed = true }
  }
}
