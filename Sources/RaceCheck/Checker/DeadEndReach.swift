/// How many later reads a search asks ``StateTransitions/isDeadEnd(_:remaining:reads:)`` to test.
enum DeadEndReach {
  /// Before the first backtrack: the few reads just ahead, which a wrong state fails first.
  ///
  /// Testing every read within reach at every node cost 65–80% of the time on 100k-operation
  /// key-value histories that need no backtracking, and made a long sequential history
  /// quadratic in practice.
  static let quick = 8
  /// Once the search has backtracked: every read within the model's lookahead, which is
  /// what decides hard histories such as Porcupine's c50-bad quickly.
  static let thorough = Int.max

  /// The reach for a search that has (or has not) backtracked yet.
  static func reads(backtracked: Bool) -> Int { backtracked ? thorough : quick }
}
