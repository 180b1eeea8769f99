/// Decides whether a history of overlapping operations has a linearization: Wing & Gong's search with Lowe's memoization.
///
/// The history becomes a doubly linked list of call and return events in time order
/// (at equal times calls come first: operations that touch overlap). The search walks
/// the list from the front. At a call whose operation the model accepts from the current
/// state, it *lifts* the operation — unlinks its call and return — and starts again at
/// the front. At a return, the operation it closes cannot have been linearized later
/// than here, so the search *backtracks*: it relinks the last lifted operation and moves
/// past it. The list empties exactly when every operation has been placed.
///
/// Lowe's memoization: two paths that linearized the same set of operations into the
/// same model state have the same future, so each (set, state) pair is explored once.
/// States are compared by value and hashed, which is why models are plain values.
package struct LinearizabilityChecker<State: Hashable> {
  /// An operation's interval. `returnTime == nil` means it may take effect at any point after its call, or never.
  package struct Interval {
    package var callTime: Int64
    package var returnTime: Int64?

    package init(callTime: Int64, returnTime: Int64?) {
      self.callTime = callTime
      self.returnTime = returnTime
    }
  }

  /// The search's answer.
  package enum Outcome {
    /// Every operation placed, in this order.
    case linearizable(order: [Int])
    /// No order exists; the longest prefix the search placed, and the state after it.
    case notLinearizable(longestPrefix: [Int], state: State)
  }

  package let intervals: [Interval]
  package let initial: State
  /// Applies operation `index` to the state and says whether its recorded result is what the model returns.
  package let step: (inout State, _ index: Int) -> Bool

  package init(
    intervals: [Interval], initial: State, step: @escaping (inout State, _ index: Int) -> Bool
  ) {
    self.intervals = intervals
    self.initial = initial
    self.step = step
  }

  package func check() -> Outcome {
    var events = EventList(intervals)
    var placed = Bitset(count: intervals.count)
    var visited = Set<Memo>()
    var stack: [(operation: Int, stateBefore: State)] = []
    var state = initial
    var longest: (prefix: [Int], state: State) = ([], initial)

    var cursor = events.first
    while events.first != EventList.end {
      let event = events.event(cursor)
      if event.isCall {
        var next = state
        if step(&next, event.operation) {
          placed.insert(event.operation)
          if visited.insert(Memo(placed: placed, state: next)).inserted {
            stack.append((event.operation, state))
            state = next
            events.lift(event.operation)
            if stack.count > longest.prefix.count {
              longest = (stack.map(\.operation), state)
            }
            cursor = events.first
            continue
          }
          placed.remove(event.operation)
        }
        cursor = events.next(cursor)
      } else {
        guard let last = stack.popLast() else {
          return .notLinearizable(longestPrefix: longest.prefix, state: longest.state)
        }
        placed.remove(last.operation)
        state = last.stateBefore
        events.unlift(last.operation)
        cursor = events.next(events.callNode(of: last.operation))
      }
    }
    return .linearizable(order: stack.map(\.operation))
  }

  private struct Memo: Hashable {
    var placed: Bitset
    var state: State
  }
}

/// A set of small integers as bits.
struct Bitset: Hashable {
  private var words: [UInt64]

  init(count: Int) {
    words = Array(repeating: 0, count: (count + 63) / 64)
  }

  mutating func insert(_ member: Int) {
    words[member >> 6] |= 1 << UInt64(member & 63)
  }

  mutating func remove(_ member: Int) {
    words[member >> 6] &= ~(1 << UInt64(member & 63))
  }
}

/// The call and return events of a history as a doubly linked list that supports lifting and relinking an operation.
///
/// Node `2i` is operation `i`'s call, node `2i + 1` its return. Operations are relinked
/// in the reverse order of lifting, so each node's neighbours are still the ones it
/// had when it was unlinked (the dancing-links trick).
struct EventList {
  static let end = -1
  private static let head = -2

  private var nextNode: [Int]
  private var previousNode: [Int]
  private(set) var first: Int

  struct Event {
    var operation: Int
    var isCall: Bool
  }

  init(_ intervals: [LinearizabilityChecker<some Hashable>.Interval]) {
    var nodes: [(time: Int64, isReturn: Bool, node: Int)] = []
    nodes.reserveCapacity(intervals.count * 2)
    for (index, interval) in intervals.enumerated() {
      nodes.append((interval.callTime, false, 2 * index))
      nodes.append((interval.returnTime ?? .max, true, 2 * index + 1))
    }
    // Calls before returns at equal times; among equals, the original order.
    nodes.sort { ($0.time, $0.isReturn ? 1 : 0, $0.node) < ($1.time, $1.isReturn ? 1 : 0, $1.node) }
    nextNode = Array(repeating: Self.end, count: nodes.count)
    previousNode = Array(repeating: Self.head, count: nodes.count)
    first = nodes.first?.node ?? Self.end
    for position in nodes.indices {
      let node = nodes[position].node
      if position > 0 { previousNode[node] = nodes[position - 1].node }
      if position + 1 < nodes.count { nextNode[node] = nodes[position + 1].node }
    }
  }

  func event(_ node: Int) -> Event {
    Event(operation: node >> 1, isCall: node & 1 == 0)
  }

  func next(_ node: Int) -> Int {
    nextNode[node]
  }

  func callNode(of operation: Int) -> Int {
    2 * operation
  }

  mutating func lift(_ operation: Int) {
    unlink(2 * operation)
    unlink(2 * operation + 1)
  }

  mutating func unlift(_ operation: Int) {
    relink(2 * operation + 1)
    relink(2 * operation)
  }

  private mutating func unlink(_ node: Int) {
    let previous = previousNode[node]
    let next = nextNode[node]
    if previous == Self.head { first = next } else { nextNode[previous] = next }
    if next != Self.end { previousNode[next] = previous }
  }

  private mutating func relink(_ node: Int) {
    let previous = previousNode[node]
    let next = nextNode[node]
    if previous == Self.head { first = node } else { nextNode[previous] = node }
    if next != Self.end { previousNode[next] = node }
  }
}
