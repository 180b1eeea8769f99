/// A linearization of a legal history, as the search found it: the operations in the order they took effect.
enum Witness {
  /// The order `order` with each of `left` (operations left out of the search because they fit every state and change nothing) put back where real time allows.
  ///
  /// Such an operation goes right after the last operation of `order` that returned before
  /// it was called. Every operation that must follow it (one called after it returned) was
  /// called after that one returned, so `order` already has it later: the result keeps
  /// every real-time precedence. Several put back at one place go in call order.
  static func inserting(
    _ left: [Int], into order: [Int], callTimes: [Int64], returnTimes: [Int64]
  ) -> [Int] {
    guard !left.isEmpty else { return order }
    // For each prefix of `order` sorted by return time, the latest position among it.
    let byReturn = order.indices.sorted { returnTimes[order[$0]] < returnTimes[order[$1]] }
    var latest: [Int] = []
    latest.reserveCapacity(byReturn.count)
    for position in byReturn { latest.append(max(latest.last ?? -1, position)) }
    // Where each left-out operation goes: after position `slot` (-1: before everything).
    var slots: [(slot: Int, call: Int64, index: Int)] = left.map { index in
      // The number of operations of `order` that returned before it was called.
      var low = 0
      var high = byReturn.count
      while low < high {
        let middle = (low + high) / 2
        if returnTimes[order[byReturn[middle]]] < callTimes[index] {
          low = middle + 1
        } else {
          high = middle
        }
      }
      return (low == 0 ? -1 : latest[low - 1], callTimes[index], index)
    }
    slots.sort { ($0.slot, $0.call, $0.index) < ($1.slot, $1.call, $1.index) }
    var result: [Int] = []
    result.reserveCapacity(order.count + left.count)
    var next = slots.startIndex
    while next < slots.endIndex && slots[next].slot == -1 {
      result.append(slots[next].index)
      next += 1
    }
    for (position, operation) in order.enumerated() {
      result.append(operation)
      while next < slots.endIndex && slots[next].slot == position {
        result.append(slots[next].index)
        next += 1
      }
    }
    return result
  }
}
