/// The longest prefix a search has placed, kept at a cost linear in the placements rather than in the prefix's length.
///
/// Copying the whole stack each time it grows past the longest made a history that
/// needs no backtracking cost n²/2 copies. Instead the kept prefix and the stack share
/// their first `agreeing` operations — nothing the stack has not popped since it last
/// grew the prefix — and only the stack's operations past that are copied: each
/// placement at most once until a backtrack pops it.
struct LongestPrefix {
  private var operations: [Int32] = []
  /// How many of the first operations the stack still shares with the kept prefix.
  private var agreeing = 0
  /// The state after the kept prefix.
  private(set) var state: Int32
  /// Operations copied so far, which ``WingGongSearch/Work`` reports.
  private(set) var copied = 0

  init(state: Int32) {
    self.state = state
  }

  /// The kept prefix's length.
  var count: Int { operations.count }

  /// The kept prefix, as operation numbers.
  var prefix: [Int] { operations.map { Int($0) } }

  /// Takes `stack` (longer than the kept prefix) as the new longest prefix, `state` after it.
  mutating func extend<Stack: Collection>(to stack: Stack, state: Int32)
  where Stack.Element == Int32, Stack.Index == Int {
    operations.removeSubrange(agreeing...)
    operations.append(contentsOf: stack[agreeing...])
    copied += stack.count - agreeing
    agreeing = stack.count
    self.state = state
  }

  /// Notes that the stack was popped to `count` operations.
  mutating func shorten(to count: Int) {
    agreeing = min(agreeing, count)
  }
}
