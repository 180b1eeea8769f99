/// How many later reads a search asks ``StateTransitions/isDeadEnd(_:remaining:reads:)`` to test.
enum DeadEndReach {
  /// Before the first backtrack: the few reads just ahead, which a wrong state fails first.
  ///
  /// Testing every read within reach at every node cost 65–80% of the time on 100k-operation
  /// key-value histories that need no backtracking, and made a long sequential history
  /// quadratic in practice.
  static let quick = 8
  /// Once the search has backtracked: enough reads to decide hard histories quickly.
  ///
  /// On Porcupine's c50-bad split by key: 16 reads took 32 s, 64 reads 0.15 s, every read
  /// within the lookahead 0.10 s — but every read made a 100k-operation kv history of 10
  /// keys, which backtracks now and then, 0.52 s instead of 0.29 s.
  static let thorough = 64

  /// The reach for a search that has (or has not) backtracked yet.
  static func reads(backtracked: Bool) -> Int { backtracked ? thorough : quick }
}
