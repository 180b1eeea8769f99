/// The search at the heart of the checker: Wing & Gong's, with Lowe's memo, over named states.
///
/// The history is a doubly linked list of call and return events in time order (at
/// equal times calls come first: operations that touch overlap). The search walks the
/// list from the front. At a call whose operation the model accepts from the current
/// state, it *lifts* the operation — unlinks its call and return — and starts again at
/// the front. At a return, the operation it closes cannot be linearized later than
/// here, so the search *backtracks*: it relinks the last lifted operation and moves past
/// it. Every operation with a known outcome placed means success; operations with an
/// unknown outcome (`info`) never return, may be placed anywhere after their call, and
/// need not be placed at all.
///
/// Three prunings keep it small:
/// - Lowe's memo: two paths that linearized the same set of operations into the same
///   state have the same future, so each (set, state) pair is explored once. Sets are
///   128-bit fingerprints (``FingerprintSet``), states small integers (``StateSpace``).
/// - Operations that leave the state unchanged (reads, a compare-and-set that failed)
///   are placed as soon as their result fits, and no other order is tried at that
///   point: moving such an operation earlier, to where it could already go, breaks no
///   linearization. This removes the branching that reads cause, which is what makes
///   proving a history *illegal* fast. Once the search struggles, an operation of unknown
///   outcome that would leave the state unchanged where it stands is not placed there at
///   all: it need never be.
/// - A model may recognise a dead end early (``StateTransitions/isDeadEnd(_:remaining:reads:)``):
///   a key-value store's value must be a prefix of what a later read returns when only
///   appends can come before that read.
///
/// Operations that follow one another in real time have one order, theirs, which is
/// replayed without any of this (most keys' parts of a history of a thousand keys).
struct WingGongSearch {
  /// The operations of one search, each with its interval and what the search may assume of it.
  ///
  /// One array of entries: a history split into a thousand small parts builds a thousand of these.
  struct Operations {
    /// One operation as the search sees it.
    struct Entry {
      var callTime: Int64
      /// `Int64.max` for an operation whose outcome is unknown.
      var returnTime: Int64
      var isInfo: Bool
      /// Whether the model guarantees that it never changes the state when its result fits.
      var leavesStateUnchanged: Bool
    }

    var entries: [Entry]

    init(_ entries: [Entry]) {
      self.entries = entries
    }

    var count: Int { entries.count }

    subscript(operation: Int) -> Entry { entries[operation] }
  }

  /// The search's answer, with states as ``StateSpace`` names.
  enum Result: Equatable, Sendable {
    /// Every operation with a known outcome placed, in this order (info operations placed are included).
    case linearizable(order: [Int])
    /// No order exists; the longest prefix placed and the state after it.
    case notLinearizable(longestPrefix: [Int], state: Int32)
    /// The budget ran out first; the longest prefix placed so far and the state after it.
    case unknown(longestPrefix: [Int], state: Int32)
  }

  /// When a search gives up: a deadline, a flag another search raises, or neither.
  struct Budget: Sendable {
    /// When the search stops.
    var deadline: Deadline = .distantFuture
    /// Asked now and then; `true` stops the search (another partition already failed).
    var shouldStop: (@Sendable () -> Bool)?
    /// The most search steps (nodes entered or candidates tried) before the search stops; nil for no limit.
    ///
    /// A limit in work rather than time makes a bounded search repeatable: the explainer's
    /// window search spends at most what deciding the history cost (``Explainer``).
    var steps: Int?

    static var unlimited: Budget { Budget() }

    /// Whether a search that has taken `steps` steps stops before its next one.
    ///
    /// The step limit is tested at every step; the clock and the stop flag every 1024
    /// steps, where their cost disappears.
    func isSpent(after steps: Int) -> Bool {
      if let limit = self.steps, steps >= limit { return true }
      guard steps > 0 && steps & 0x3FF == 0 else { return false }
      if deadline.hasPassed { return true }
      return shouldStop?() == true
    }
  }

  private struct Frame {
    var operation: Int32
    var stateBefore: Int32
    /// Placed because it changes nothing: no other choice is tried at its node.
    var forced: Bool
  }

  /// What a search cost: its steps, and the operations it copied to keep the longest prefix.
  struct Work: Sendable, Hashable {
    /// Nodes entered and candidates tried: the unit of ``Budget/steps``.
    var steps = 0
    /// Operations copied into the longest prefix kept for a violation's explanation.
    ///
    /// Each placement is copied at most once until a backtrack undoes it, so on a history
    /// that needs no backtracking this is at most the number of operations.
    var copied = 0
  }

  /// Searches for a linearization of `operations` from state 0 of `transitions`.
  static func run<Transitions: StateTransitions>(
    _ operations: Operations, transitions: inout Transitions, initial: Int32 = 0,
    budget: Budget = .unlimited
  ) -> Result {
    var work = Work()
    return run(operations, transitions: &transitions, initial: initial, budget: budget, work: &work)
  }

  /// Searches for a linearization as ``run(_:transitions:initial:budget:)`` does, adding its cost to `work`.
  static func run<Transitions: StateTransitions>(
    _ operations: Operations, transitions: inout Transitions, initial: Int32 = 0,
    budget: Budget = .unlimited, work: inout Work
  ) -> Result {
    if operations.followOneAnother {
      return replay(
        operations, transitions: &transitions, initial: initial, budget: budget, work: &work)
    }
    let count = operations.count
    var events = EventList(operations, watching: transitions.watches)
    let keys = ZobristKeys()
    var fingerprint: (UInt64, UInt64) = (0, 0)
    // Sized to the part: a history of a thousand keys has a thousand small searches.
    var visited = FingerprintSet(capacity: min(1 << 10, 2 * count + 8))
    var stack: [Frame] = []
    stack.reserveCapacity(count)
    var state = initial
    var required = operations.entries.reduce(0) { $1.isInfo ? $0 : $0 + 1 }
    var longest = LongestPrefix(state: initial)
    var steps = 0
    // How the search is faring, which sets how far its dead-end tests look.
    var placements = 0
    var backtracks = 0
    defer {
      work.steps += steps
      work.copied += longest.copied
    }

    func place(_ operation: Int, from before: Int32, to after: Int32, forced: Bool) {
      stack.append(Frame(operation: Int32(operation), stateBefore: before, forced: forced))
      placements += 1
      events.lift(operation)
      state = after
      if !operations[operation].isInfo { required -= 1 }
      if stack.count > longest.count {
        longest.extend(to: stack.count, state: after)
      }
    }

    /// Undoes placements back to the last free choice; returns where to scan on, or nil when none is left.
    func backtrack() -> Int32? {
      backtracks += 1
      while !stack.isEmpty {
        longest.keep(stack.lazy.map(\.operation), poppingTo: stack.count - 1)
        let frame = stack.removeLast()
        let operation = Int(frame.operation)
        events.unlift(operation)
        keys.toggle(operation, in: &fingerprint)
        state = frame.stateBefore
        if !operations[operation].isInfo { required += 1 }
        if !frame.forced { return events.next(EventList.callNode(of: operation)) }
      }
      return nil
    }

    func notLinearizable() -> Result {
      .notLinearizable(
        longestPrefix: longest.prefix(sharing: stack.lazy.map(\.operation)), state: longest.state)
    }

    func unknown() -> Result {
      .unknown(
        longestPrefix: longest.prefix(sharing: stack.lazy.map(\.operation)), state: longest.state)
    }

    var cursor = events.first
    var atNodeEntry = true
    while true {
      if required == 0 { return .linearizable(order: stack.map { Int($0.operation) }) }
      if budget.isSpent(after: steps) { return unknown() }
      steps &+= 1
      if atNodeEntry {
        atNodeEntry = false
        // After a placement that changed nothing the parent's test stands: it saw the same
        // state and every event still here (a bounded test may look a little further now,
        // but need not).
        let changedState = stack.last.map { $0.stateBefore != state } ?? true
        if changedState
          && transitions.isDeadEnd(
            state, remaining: events,
            reads: DeadEndReach.reads(placements: placements, backtracks: backtracks))
        {
          guard let next = backtrack() else {
            return notLinearizable()
          }
          cursor = next
          continue
        }
        // An operation that changes nothing and fits now is placed without branching.
        var node = events.first
        var doomed = false
        var forcedPlacement = false
        while node != EventList.end && EventList.isCall(node) {
          let operation = EventList.operation(node)
          if operations[operation].leavesStateUnchanged,
            transitions.next(from: state, by: operation) == state
          {
            keys.toggle(operation, in: &fingerprint)
            if visited.insert(fingerprint, state: state) {
              place(operation, from: state, to: state, forced: true)
              forcedPlacement = true
            } else {
              keys.toggle(operation, in: &fingerprint)
              doomed = true
            }
            break
          }
          node = events.next(node)
        }
        if forcedPlacement {
          atNodeEntry = true
          continue
        }
        if doomed {
          guard let next = backtrack() else {
            return notLinearizable()
          }
          cursor = next
          continue
        }
        cursor = events.first
      }
      guard cursor != EventList.end, EventList.isCall(cursor) else {
        guard let next = backtrack() else {
          return notLinearizable()
        }
        cursor = next
        continue
      }
      let operation = EventList.operation(cursor)
      let next = transitions.next(from: state, by: operation)
      // Once the search struggles, an operation of unknown outcome that would change
      // nothing here is not placed: leaving it out serves every order placing it would (it
      // is never required, and its return never comes, so it holds no other operation
      // back), and placing it adds a node the memo cannot match with the one without it,
      // whose search it repeats — for each such operation, doubling the nodes. While the
      // search finds its way, placing it takes it out of every later scan of the events.
      if next >= 0
        && !(next == state && operations[operation].isInfo
          && DeadEndReach.struggles(placements: placements, backtracks: backtracks))
      {
        keys.toggle(operation, in: &fingerprint)
        if visited.insert(fingerprint, state: next) {
          place(operation, from: state, to: next, forced: false)
          atNodeEntry = true
          continue
        }
        keys.toggle(operation, in: &fingerprint)
      }
      cursor = events.next(cursor)
    }
  }
}

extension WingGongSearch {
  /// Checks operations that follow one another in real time, whose only order is theirs, by replaying them.
  ///
  /// The search would walk the same single path; this skips its event list, memo and
  /// stack, which are most of the cost of a key's part of one or two operations.
  private static func replay<Transitions: StateTransitions>(
    _ operations: Operations, transitions: inout Transitions, initial: Int32, budget: Budget,
    work: inout Work
  ) -> Result {
    var state = initial
    for operation in 0..<operations.count {
      // A step an operation, under the search's budget.
      if budget.isSpent(after: operation) {
        return .unknown(longestPrefix: Array(0..<operation), state: state)
      }
      work.steps += 1
      let next = transitions.next(from: state, by: operation)
      if next < 0 { return .notLinearizable(longestPrefix: Array(0..<operation), state: state) }
      state = next
    }
    return .linearizable(order: Array(0..<operations.count))
  }
}

extension WingGongSearch.Operations {
  /// The time of event `node` of an ``EventList``: operation `node / 2`'s call when even, its return when odd.
  @inline(__always) func time(of node: Int32) -> Int64 {
    node & 1 == 0 ? entries[Int(node >> 1)].callTime : entries[Int(node >> 1)].returnTime
  }

  /// Whether every operation returned before the next one was called, none with an unknown outcome.
  ///
  /// Events at equal times overlap (calls come first), so a return must come strictly
  /// before the next call.
  var followOneAnother: Bool {
    var previousReturn = Int64.min
    for entry in entries {
      guard !entry.isInfo, previousReturn < entry.callTime else { return false }
      previousReturn = entry.returnTime
    }
    return true
  }
}

/// Two random 64-bit keys per operation, XORed into a set's fingerprint when the operation joins or leaves it.
///
/// The keys are one SplitMix64 sequence's outputs, computed where they are used rather
/// than drawn into a table: a history of a thousand small parts then allocates and fills
/// no table per part.
struct ZobristKeys {
  private static let seed: UInt64 = 0x5A0B_1257

  @inline(__always) func toggle(_ operation: Int, in fingerprint: inout (UInt64, UInt64)) {
    fingerprint.0 ^= SplitMix64.output(seed: Self.seed, at: 2 * operation)
    fingerprint.1 ^= SplitMix64.output(seed: Self.seed, at: 2 * operation + 1)
  }
}
