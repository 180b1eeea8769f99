/// Decides whether a history of overlapping operations has a linearization: Wing & Gong's search with Lowe's memoization.
///
/// This is the checker over any `Hashable` model state, for a spec's own model as much
/// as a built-in one; ``WingGongSearch`` explains the search. States are compared by
/// value and hashed once each (``StateSpace`` names them), which is why models are plain values.
package struct LinearizabilityChecker<State: Hashable> {
  /// An operation's interval.
  ///
  /// `returnTime == nil` means it may take effect at any point after its call, or never.
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
    /// Every operation placed, in this order (operations with an unknown outcome that never took effect are left out).
    case linearizable(order: [Int])
    /// No order exists; the longest prefix the search placed, and the state after it.
    case notLinearizable(longestPrefix: [Int], state: State)
    /// The deadline passed before the search decided.
    case undecided
  }

  package let intervals: [Interval]
  package let initial: State
  /// Applies operation `index` to the state and says whether its recorded result is what the model returns.
  package let step: (inout State, _ index: Int) -> Bool
  /// Per operation, whether the model promises it never changes the state when its result fits; empty means none does.
  package var leavesStateUnchanged: [Bool] = []

  package init(
    intervals: [Interval], initial: State, step: @escaping (inout State, _ index: Int) -> Bool
  ) {
    self.intervals = intervals
    self.initial = initial
    self.step = step
  }

  /// Searches for a linearization; past `deadline` it gives up undecided.
  package func check(deadline: Deadline = .distantFuture) -> Outcome {
    var space = StateSpace(initial: initial, step: step)
    let operations = WingGongSearch.Operations(
      intervals.indices.map { index in
        WingGongSearch.Operations.Entry(
          callTime: intervals[index].callTime, returnTime: intervals[index].returnTime ?? .max,
          isInfo: intervals[index].returnTime == nil,
          leavesStateUnchanged: leavesStateUnchanged.isEmpty ? false : leavesStateUnchanged[index])
      })
    switch WingGongSearch.run(
      operations, transitions: &space, budget: WingGongSearch.Budget(deadline: deadline))
    {
    case .linearizable(let order):
      return .linearizable(order: order)
    case .notLinearizable(let prefix, let state):
      return .notLinearizable(longestPrefix: prefix, state: space.states[Int(state)])
    case .unknown:
      return .undecided
    }
  }
}
