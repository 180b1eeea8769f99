import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The events recorded and not yet written, with the ids and the pools of process numbers: what a calling thread touches.
///
/// A call or an end takes one lock, to append one event and take or give back a process
/// number; nothing is encoded or written here. The buffer is split in ``shardCount``
/// shards, each behind its own lock, and a thread appends to the shard its identity hashes
/// to: one buffer that every thread appended to cost each append some 500 ns once two
/// threads recorded at the same time on two cores (the lock's and the buffer's cache lines
/// going back and forth), against some 25 ns alone.
///
/// The file must stay a prefix of what happened, whatever moment a crash picks: an end is
/// never written without its call, nor a read's end without the call of a write whose value
/// it saw. ``take(into:)`` therefore holds every shard's lock at once while it swaps their
/// buffers out, so that a batch holds every event appended before it and none after, and it
/// orders the batch by the events' clock readings: a call's is read before the call runs,
/// an end's after it returned, so an event that could have caused another has the smaller
/// one (an end and its call can read the same nanosecond, and the call then comes first).
///
/// It is `@unchecked Sendable` for its shards' pointer alone: the shards are created in
/// `init`, freed in `deinit`, and every access in between goes through a shard's lock.
@usableFromInline
final class EventLog: @unchecked Sendable {
  // @unchecked Sendable: the shards' pointer is constant, and each access holds a shard's lock.
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

  /// A process number back in a pool, and when its last call returned.
  private struct FreeProcess {
    var process: Int
    var lastReturn: Int64
  }

  /// One shard: its events, the ids it hands out and the process numbers freed on it.
  private struct Shard {
    var events: [RecordedEvent] = []
    /// The next id of this shard's sequence: ids are `sequence * shardCount + shard`, unique without a shared counter.
    var nextSequence = 0
    /// Numbers whose last call ended `ok` or `fail` here, the most recent last: a call here takes the last.
    var freeProcesses: [FreeProcess] = []
    var isClosed = false
  }

  /// How many shards the buffer is split in: enough that a few threads rarely share one.
  static let shardCount = 16
  /// The events a shard has room for from the start, so that a steady rate of calls never grows it.
  static let initialCapacity = 4096

  /// A shard's lock and state, padded to its own cache lines: two shards sharing one would pass it between cores as one buffer did.
  private struct PaddedShard: ~Copyable {
    let state: Mutex<Shard>
    private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    init(_ shard: consuming Shard) {
      state = Mutex(shard)
    }
  }

  /// The shards, in one allocation that lives as long as the log: reaching one through a
  /// pointer costs no reference counting, which an array of boxes did at every call.
  private let shards: UnsafeMutablePointer<PaddedShard>

  /// The next process number never used.
  private let nextProcess = Atomic<Int>(0)
  /// The clients' process names, each used once.
  private let clientNames = Mutex<Set<String>>([])
  /// The events not yet taken past which a call on a shard waits for the writer; nil when nothing takes them (in memory).
  private let backlogLimit: Int?

  /// Creates an empty log; with a `backlogLimit`, a call waits while its shard holds that many events not yet written.
  init(backlogLimit: Int? = nil) {
    self.backlogLimit = backlogLimit
    shards = .allocate(capacity: Self.shardCount)
    for index in 0..<Self.shardCount {
      var shard = Shard()
      shard.events.reserveCapacity(Self.initialCapacity)
      (shards + index).initialize(to: PaddedShard(shard))
    }
  }

  deinit {
    shards.deinitialize(count: Self.shardCount)
    shards.deallocate()
  }

  /// The shard of the calling thread: its identity, hashed.
  @inline(__always)
  private var currentShard: Int {
    // The top 4 bits of a multiplicative hash: one of 16 shards.
    let identity = UInt64(pthread_self())
    return Int(truncatingIfNeeded: (identity &* 0x9E37_79B9_7F4A_7C15) >> 60)
  }

  /// Appends a call by a process from the pool: the last number freed on this shard, or a new one when none is.
  ///
  /// A reused number's call is recorded after its previous return even when the clock
  /// reads the same nanosecond twice, as the format asks of a process.
  @usableFromInline
  func call(_ name: String, _ arguments: consuming RecordedArguments) -> Ticket {
    let index = currentShard
    while true {
      let now = MonotonicInstant.now().nanoseconds
      let ticket = shards[index].state.withLock { shard -> Ticket? in
        guard !shard.isClosed else { return Ticket(id: nil, pooledProcess: nil, call: now) }
        guard !isBacklogged(shard) else { return nil }
        let id = shard.nextSequence &* Self.shardCount &+ index
        shard.nextSequence += 1
        let process: Int
        var time = now
        if let free = shard.freeProcesses.popLast() {
          process = free.process
          time = max(now, free.lastReturn &+ 1)
        } else {
          process = nextProcess.wrappingAdd(1, ordering: .relaxed).oldValue
        }
        shard.events.append(
          RecordedEvent(
            id: id, order: time,
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
    let index = currentShard
    while true {
      let now = MonotonicInstant.now().nanoseconds
      let time = lastReturn.map { max(now, $0 &+ 1) } ?? now
      let ticket = shards[index].state.withLock { shard -> Ticket? in
        guard !shard.isClosed else { return Ticket(id: nil, pooledProcess: nil, call: time) }
        guard !isBacklogged(shard) else { return nil }
        let id = shard.nextSequence &* Self.shardCount &+ index
        shard.nextSequence += 1
        shard.events.append(
          RecordedEvent(
            id: id, order: time,
            kind: .call(process: process, name: name, arguments: arguments, time: time)))
        return Ticket(id: id, pooledProcess: nil, call: time)
      }
      if let ticket { return ticket }
      waitForWriter()
    }
  }

  /// Whether the writer is ``backlogLimit`` events behind on this shard, so that a call waits rather than fill memory faster than the disk empties it.
  ///
  /// It is read in the call's own critical section, at no extra cost. Ends never wait, so
  /// a call in flight always ends.
  @inline(__always)
  private func isBacklogged(_ shard: borrowing Shard) -> Bool {
    guard let backlogLimit else { return false }
    return shard.events.count >= backlogLimit
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
    shards[currentShard].state.withLock { shard in
      guard !shard.isClosed else { return }
      shard.events.append(
        RecordedEvent(
          id: id, order: time,
          kind: .end(status: status, time: status == .info ? nil : time, result: result)))
      if status != .info, let process = ticket.pooledProcess {
        shard.freeProcesses.append(FreeProcess(process: process, lastReturn: time))
      }
    }
    return time
  }

  /// Claims `name` for a client's process; false when another client already has it.
  func claim(_ name: String) -> Bool {
    clientNames.withLock { $0.insert(name).inserted }
  }

  /// Moves every event appended so far into `batches` (one array a shard, each emptied first) and returns their order.
  ///
  /// The shards are swapped while every lock is held, so the batch is a cut: an event
  /// appended before it, by any thread, is in it. The order is by clock reading, a call
  /// before an end that read the same, then by shard and position, which keeps each
  /// thread's own order.
  func take(into batches: inout [[RecordedEvent]]) -> [EventPosition] {
    if batches.count != Self.shardCount {
      batches = Array(repeating: [], count: Self.shardCount)
    }
    for index in batches.indices { batches[index].removeAll(keepingCapacity: true) }
    swapAll(from: 0, with: &batches)
    var positions: [EventPosition] = []
    positions.reserveCapacity(batches.reduce(0) { $0 + $1.count })
    for shard in batches.indices {
      for index in batches[shard].indices {
        positions.append(EventPosition(batches[shard][index], shard: shard, index: index))
      }
    }
    // Each shard's run is already nearly in order, which the standard library's sort (a
    // merge of runs) takes in about linear time.
    positions.sort()
    return positions
  }

  /// Swaps shard `index` and every one after it with `batches`, holding each lock until the last is swapped.
  private func swapAll(from index: Int, with batches: inout [[RecordedEvent]]) {
    guard index < Self.shardCount else { return }
    shards[index].state.withLock { shard in
      swap(&shard.events, &batches[index])
      swapAll(from: index + 1, with: &batches)
    }
  }

  /// A copy of every event not yet taken, in the order ``take(into:)`` gives.
  func snapshot() -> [RecordedEvent] {
    var batches: [[RecordedEvent]] = (0..<Self.shardCount).map { index in
      shards[index].state.withLock { Array($0.events) }
    }
    // A copy is not a cut, but in memory nothing is written: the order is what matters.
    var positions: [EventPosition] = []
    for shard in batches.indices {
      for index in batches[shard].indices {
        positions.append(EventPosition(batches[shard][index], shard: shard, index: index))
      }
    }
    positions.sort()
    defer { batches.removeAll() }
    return positions.map { batches[$0.shard][$0.index] }
  }

  /// Stops recording: calls and ends from now on append nothing.
  func close() {
    for index in 0..<Self.shardCount { shards[index].state.withLock { $0.isClosed = true } }
  }
}

/// Where an event of a batch is, and the key it is written in: its clock reading, a call first, then its shard and place.
struct EventPosition: Comparable {
  var order: Int64
  /// 0 for a call, 1 for an end.
  var rank: UInt8
  var shard: Int
  var index: Int

  @inline(__always)
  init(_ event: borrowing RecordedEvent, shard: Int, index: Int) {
    order = event.order
    rank = event.isCall ? 0 : 1
    self.shard = shard
    self.index = index
  }

  static func < (lhs: EventPosition, rhs: EventPosition) -> Bool {
    (lhs.order, lhs.rank, lhs.shard, lhs.index) < (rhs.order, rhs.rank, rhs.shard, rhs.index)
  }
}
