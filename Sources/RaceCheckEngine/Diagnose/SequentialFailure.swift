/// Decides whether a failure needs threads at all, by running the same calls one after another on one thread, in the orders the threads allow.
///
/// A race needs two threads at once. A failure that the scenario's calls show when they
/// are made one after another is a bug of the operations themselves (a setter that
/// inserts, a count off by one), whatever a pattern of the concurrent results suggests:
/// the sequential evidence decides before any name of the `data-race` family stands. A
/// subject that writes on a queue of its own may still race with itself on one calling
/// thread; its sequential failure is then explained by the same writes taking effect late,
/// and the name stands.
enum SequentialFailure {
  /// The most orders of a scenario's calls tried; a minimized scenario has far fewer.
  static var orderLimit: Int { 12 }

  /// What the calls did when made one after another.
  enum Outcome {
    /// An order failed: the first one that did, with its failure, after `invocations` invocations of it.
    case failed(order: [Scenario.Call], failure: ObservedFailure, invocations: Int)
    /// Every order tried passed, `invocations` invocations in all, over `orders` orders.
    case passed(invocations: Int, orders: Int)
    /// A run ended without a result (an interruption, a dead child): nothing is known.
    case unknown
  }

  /// The orders of `scenario`'s parallel calls made one after another, each thread's calls in its own order: thread 0's first, at most ``orderLimit``.
  static func orders(of scenario: Scenario) -> [[Scenario.Call]] {
    var orders: [[Scenario.Call]] = []
    var order: [Scenario.Call] = []
    func extend(_ positions: [Int]) {
      guard orders.count < orderLimit else { return }
      var extended = false
      for (thread, column) in scenario.parallel.enumerated() where positions[thread] < column.count
      {
        extended = true
        var next = positions
        next[thread] += 1
        order.append(column[positions[thread]])
        extend(next)
        order.removeLast()
      }
      if !extended { orders.append(order) }
    }
    extend(Array(repeating: 0, count: scenario.parallel.count))
    return orders
  }

  /// The scenario that makes `order`'s calls on one thread, between `scenario`'s initial and post parts.
  static func scenario(_ order: [Scenario.Call], of scenario: Scenario) -> Scenario {
    Scenario(initial: scenario.initial + order, post: scenario.post)
  }

  /// The diagnosis of a failure that `order` shows on one thread: no race, whatever the concurrent results suggested.
  static func diagnosis(order: [Scenario.Call], invocations: Int) -> Diagnosis {
    let calls = order.map(\.description).joined(separator: ", ")
    let runs = invocations == 1 ? "its first invocation" : "invocation \(invocations)"
    return Diagnosis(
      .unclassified,
      evidence:
        "the same calls fail when made one after another on one thread (\(calls), in \(runs)): "
        + "the bug needs no second thread, so it is not a race; it fits none of the known bug "
        + "patterns, and the minimized scenario and history below are the evidence")
  }
}
