/// How many later reads a search asks ``StateTransitions/isDeadEnd(_:remaining:reads:)`` to test.
enum DeadEndReach {
  /// While the search finds its way: the few reads just ahead, which a wrong state fails first.
  ///
  /// Testing every read within reach at every node cost 65–80% of the time on 100k-operation
  /// key-value histories that need no backtracking, and made a long sequential history
  /// quadratic in practice.
  static let quick = 8
  /// Once the search struggles: enough reads to decide hard histories quickly.
  ///
  /// On Porcupine's c50-bad split by key: 8, 16 or 32 reads took 14–18 s and 1 GB, 64 reads
  /// 0.08 s — but 64 reads at every node of a 10-key history, which backtracks now and then,
  /// cost it a third more than 8.
  static let thorough = 64

  /// The reach for a search that has made `placements` placements and `backtracks` backtracks.
  ///
  /// A search struggles when it has undone at least half as many placements as it made:
  /// on the hard keys of c50-bad nine in ten, on generated 10-key histories at most one in
  /// five. Before the first backtrack it never does.
  static func reads(placements: Int, backtracks: Int) -> Int {
    struggles(placements: placements, backtracks: backtracks) ? thorough : quick
  }

  /// Whether a search that has made `placements` placements and `backtracks` backtracks struggles: it has undone at least half as many placements as it made.
  static func struggles(placements: Int, backtracks: Int) -> Bool {
    2 * backtracks >= placements && backtracks > 0
  }

  /// The reach for a search that has (or has not) backtracked yet.
  static func reads(backtracked: Bool) -> Int { backtracked ? thorough : quick }
}
