import Testing

@testable import RaceCheckEngine
@testable import RaceCheckHistory

// The event list the search walks: its events in time order after any lifts and relinks,
// and its watched events chained apart in the same order.

extension UnitTestSuite {
  @Suite struct EventListTests {
    @Test func bothChainsHoldTheRemainingEventsInTimeOrderThroughLiftsAndRelinks() {
      var random = SplitMix64(seed: 11)
      for _ in 0..<300 {
        let operations = randomOperations(&random)
        // Some calls and some returns watched, as a model's dead-end test picks them.
        let watched = (0..<2 * operations.count).map { _ in random.below(3) == 0 }
        var list = EventList(operations, watching: { watched[Int($0)] })
        var lifted: [Int] = []
        for _ in 0..<3 * operations.count {
          let remaining = (0..<operations.count).filter { !lifted.contains($0) }
          if !remaining.isEmpty && (lifted.isEmpty || random.below(3) != 0) {
            let operation = remaining[random.below(remaining.count)]
            list.lift(operation)
            lifted.append(operation)
          } else if let operation = lifted.popLast() {
            // Relinks come in the reverse order of lifts, as the search's backtracking does.
            list.unlift(operation)
          }
          let expected = eventsInTimeOrder(operations, leavingOut: lifted)
          #expect(chain(of: list, watched: false) == expected)
          #expect(chain(of: list, watched: true) == expected.filter { watched[Int($0)] })
        }
      }
    }

    @Test func splitMixOutputsAreTheSequenceItsGeneratorDraws() {
      for seed: UInt64 in [0, 1, 0x5A0B_1257, .max] {
        var generator = SplitMix64(seed: seed)
        for index in 0..<50 {
          #expect(SplitMix64.output(seed: seed, at: index) == generator.next())
        }
      }
    }
  }
}

/// Up to ten operations at small random times, so that many events share a time; some never return.
private func randomOperations(_ random: inout SplitMix64) -> WingGongSearch.Operations {
  WingGongSearch.Operations(
    (0..<1 + random.below(10)).map { _ in
      let call = Int64(random.below(8))
      let isInfo = random.below(6) == 0
      return WingGongSearch.Operations.Entry(
        callTime: call, returnTime: isInfo ? .max : call + Int64(random.below(4)), isInfo: isInfo,
        leavesStateUnchanged: false)
    })
}

/// The events of the operations not in `lifted`, by time, calls first at equal times, then by node.
private func eventsInTimeOrder(_ operations: WingGongSearch.Operations, leavingOut lifted: [Int])
  -> [Int32]
{
  let nodes = (0..<Int32(2 * operations.count)).filter { !lifted.contains(Int($0 >> 1)) }
  let time = { (node: Int32) in
    node & 1 == 0 ? operations[Int(node >> 1)].callTime : operations[Int(node >> 1)].returnTime
  }
  // Written out here rather than through `Operations.time(of:)`, which the list itself uses.
  return nodes.sorted { (time($0), $0 & 1, $0) < (time($1), $1 & 1, $1) }
}

/// The nodes of one of the list's chains, first to last.
private func chain(of list: EventList, watched: Bool) -> [Int32] {
  var nodes: [Int32] = []
  var node = watched ? list.firstWatched : list.first
  while node != EventList.end {
    nodes.append(node)
    node = watched ? list.nextWatched(node) : list.next(node)
  }
  return nodes
}
