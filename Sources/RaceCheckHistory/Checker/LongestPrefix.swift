/// The longest prefix a search has placed, kept at a cost linear in the placements it undoes rather than in the prefix's length.
///
/// Copying the whole stack each time it grew past the longest made a history that needs
/// no backtracking cost n²/2 copies. Instead the kept prefix and the stack share their
/// first `agreeing` operations — nothing the stack has popped since it last grew the
/// prefix — and those are read from the stack. Only when the stack is about to pop one
/// of them is it copied, once: a search that never backtracks copies nothing, and every
/// copied operation is one a backtrack undoes.
struct LongestPrefix {
  /// The kept prefix at the positions from `agreeing` on; what is below is the stack's.
  private var kept: [Int32] = []
  /// How many of the first operations the stack still shares with the kept prefix.
  private var agreeing = 0
  /// The kept prefix's length.
  private(set) var count = 0
  /// The state after the kept prefix.
  private(set) var state: Int32
  /// Operations copied so far, which ``WingGongSearch/Work`` reports.
  private(set) var copied = 0

  init(state: Int32) {
    self.state = state
  }

  /// Takes the stack, now `length` operations long (longer than the kept prefix), as the new longest prefix, `state` after it.
  mutating func extend(to length: Int, state: Int32) {
    count = length
    agreeing = length
    self.state = state
  }

  /// Copies what the kept prefix shares with `stack` at the positions from `length` on, before the stack is popped to `length`.
  mutating func keep<Stack: Collection>(_ stack: Stack, poppingTo length: Int)
  where Stack.Element == Int32, Stack.Index == Int {
    guard length < agreeing else { return }
    if kept.count < count { kept.append(contentsOf: repeatElement(0, count: count - kept.count)) }
    kept.replaceSubrange(length..<agreeing, with: stack[length..<agreeing])
    copied += agreeing - length
    agreeing = length
  }

  /// The kept prefix as operation numbers, its first operations read from `stack`.
  func prefix<Stack: Collection>(sharing stack: Stack) -> [Int]
  where Stack.Element == Int32, Stack.Index == Int {
    var prefix = stack[..<agreeing].map { Int($0) }
    if agreeing < count { prefix += kept[agreeing..<count].map { Int($0) } }
    return prefix
  }
}
