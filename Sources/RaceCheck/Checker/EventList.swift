/// The call and return events of a history as a doubly linked list that supports lifting and relinking an operation.
///
/// Node `2i` is operation `i`'s call, node `2i + 1` its return. Operations are relinked
/// in the reverse order of lifting, so each node's neighbours are still the ones it
/// had when it was unlinked (the dancing-links trick).
struct EventList {
  static let end: Int32 = -1
  private static let head: Int32 = -2

  private var nextNode: [Int32]
  private var previousNode: [Int32]
  private(set) var first: Int32

  /// Orders the events by time, calls before returns at equal times; `returnTimes[i] == .max` never returns.
  init(callTimes: [Int64], returnTimes: [Int64]) {
    var nodes: [(time: Int64, isReturn: Bool, node: Int32)] = []
    nodes.reserveCapacity(callTimes.count * 2)
    for index in callTimes.indices {
      nodes.append((callTimes[index], false, Int32(2 * index)))
      nodes.append((returnTimes[index], true, Int32(2 * index + 1)))
    }
    // Calls before returns at equal times; among equals, the original order.
    nodes.sort { ($0.time, $0.isReturn ? 1 : 0, $0.node) < ($1.time, $1.isReturn ? 1 : 0, $1.node) }
    nextNode = Array(repeating: Self.end, count: nodes.count)
    previousNode = Array(repeating: Self.head, count: nodes.count)
    first = nodes.first?.node ?? Self.end
    for position in nodes.indices {
      let node = Int(nodes[position].node)
      if position > 0 { previousNode[node] = nodes[position - 1].node }
      if position + 1 < nodes.count { nextNode[node] = nodes[position + 1].node }
    }
  }

  @inline(__always) static func operation(_ node: Int32) -> Int { Int(node >> 1) }
  @inline(__always) static func isCall(_ node: Int32) -> Bool { node & 1 == 0 }

  @inline(__always) func next(_ node: Int32) -> Int32 {
    nextNode[Int(node)]
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
    let previous = previousNode[Int(node)]
    let next = nextNode[Int(node)]
    if previous == Self.head { first = next } else { nextNode[Int(previous)] = next }
    if next != Self.end { previousNode[Int(next)] = previous }
  }

  private mutating func relink(_ node: Int32) {
    let previous = previousNode[Int(node)]
    let next = nextNode[Int(node)]
    if previous == Self.head { first = node } else { nextNode[Int(previous)] = node }
    if next != Self.end { previousNode[Int(next)] = node }
  }
}
