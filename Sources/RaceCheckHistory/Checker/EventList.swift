/// The call and return events of a history as a doubly linked list that supports lifting and relinking an operation.
///
/// Node `2i` is operation `i`'s call, node `2i + 1` its return. Operations are relinked
/// in the reverse order of lifting, so each node's neighbours are still the ones it
/// had when it was unlinked (the dancing-links trick).
struct EventList {
  static let end: Int32 = -1
  private static let head: Int32 = -2
  /// The watched links of a node that is not watched.
  private static let unwatched: Int32 = -3

  /// Node `n`'s next node at `4n`, its previous one at `4n + 1`, and, when it is watched,
  /// its next and previous watched node at `4n + 2` and `4n + 3`: one array a list.
  private var links: [Int32]
  private(set) var first: Int32
  /// The first remaining watched node (see ``init(_:watching:)``), or ``end``.
  private(set) var firstWatched: Int32

  /// Orders the operations' events by time, calls before returns at equal times; a return time of `.max` never comes.
  ///
  /// The nodes for which `isWatched` holds are also chained on their own, in the same
  /// order: a model's dead-end test walks those alone (``firstWatched``, ``nextWatched(_:)``),
  /// not the events it would skip, which are most of them.
  init(
    _ operations: WingGongSearch.Operations, watching isWatched: (Int32) -> Bool = { _ in false }
  ) {
    let count = operations.count * 2
    links = Array(repeating: Self.end, count: 4 * count)
    first = Self.end
    firstWatched = Self.end
    guard count > 0 else { return }
    // The nodes sorted in a scratch buffer (on the stack when small): a history of a
    // thousand small parts builds a thousand lists.
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { buffer in
      var order = buffer
      for node in 0..<count { order[node] = Int32(node) }
      // Calls before returns at equal times (a call's node is even); among equals, the original order.
      order.sort { left, right in
        (operations.time(of: left), left & 1, left) < (operations.time(of: right), right & 1, right)
      }
      var previous = Self.head
      var previousWatched = Self.head
      for node in order {
        let slot = 4 * Int(node)
        links[slot + 1] = previous
        if previous == Self.head { first = node } else { links[4 * Int(previous)] = node }
        previous = node
        if isWatched(node) {
          links[slot + 3] = previousWatched
          if previousWatched == Self.head {
            firstWatched = node
          } else {
            links[4 * Int(previousWatched) + 2] = node
          }
          previousWatched = node
        } else {
          links[slot + 2] = Self.unwatched
        }
      }
    }
  }

  @inline(__always) static func operation(_ node: Int32) -> Int { Int(node >> 1) }
  @inline(__always) static func isCall(_ node: Int32) -> Bool { node & 1 == 0 }

  @inline(__always) func next(_ node: Int32) -> Int32 {
    links[4 * Int(node)]
  }

  /// The next remaining watched node after the watched node `node`, or ``end``.
  @inline(__always) func nextWatched(_ node: Int32) -> Int32 {
    links[4 * Int(node) + 2]
  }

  @inline(__always) static func callNode(of operation: Int) -> Int32 {
    Int32(2 * operation)
  }

  mutating func lift(_ operation: Int) {
    unlink(Int32(2 * operation))
    unlink(Int32(2 * operation + 1))
  }

  mutating func unlift(_ operation: Int) {
    relink(Int32(2 * operation + 1))
    relink(Int32(2 * operation))
  }

  private mutating func unlink(_ node: Int32) {
    first = unlink(node, chain: 0, first: first)
    if links[4 * Int(node) + 2] != Self.unwatched {
      firstWatched = unlink(node, chain: 2, first: firstWatched)
    }
  }

  private mutating func relink(_ node: Int32) {
    first = relink(node, chain: 0, first: first)
    if links[4 * Int(node) + 2] != Self.unwatched {
      firstWatched = relink(node, chain: 2, first: firstWatched)
    }
  }

  /// Takes `node` out of the chain whose next and previous links are at `chain` and `chain + 1`; returns the chain's first node after.
  private mutating func unlink(_ node: Int32, chain: Int, first: Int32) -> Int32 {
    let previous = links[4 * Int(node) + chain + 1]
    let next = links[4 * Int(node) + chain]
    if next != Self.end { links[4 * Int(next) + chain + 1] = previous }
    if previous == Self.head { return next }
    links[4 * Int(previous) + chain] = next
    return first
  }

  /// Puts `node` back between the neighbours it kept in the chain at `chain`; returns the chain's first node after.
  private mutating func relink(_ node: Int32, chain: Int, first: Int32) -> Int32 {
    let previous = links[4 * Int(node) + chain + 1]
    let next = links[4 * Int(node) + chain]
    if next != Self.end { links[4 * Int(next) + chain + 1] = node }
    if previous == Self.head { return node }
    links[4 * Int(previous) + chain] = node
    return first
  }
}
