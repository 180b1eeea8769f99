/// Wing & Gong's search over a whole history of independent keys, with per-key states and conflict-directed backjumping.
///
/// It searches the same tree as ``WingGongSearch`` — the history unsplit, one event list
/// in time order, every operation of every key a candidate at every node — so real-time
/// order across keys is respected exactly as in any whole-history check. What it adds is
/// what the keys' independence lets it *learn* from a failure.
///
/// **States.** Each key has its own ``StateTransitions`` (its operations numbered within
/// the key) and its own event list, which its dead-end test reads. The whole state is
/// one name per key; placing an operation changes one key's name.
///
/// **Reasons.** A node is the set S of operations placed and the state σ. For a set of
/// keys K, its projection is (S ∩ K's operations, σ on K), and the K-history is the
/// history of K's operations alone. When a node fails, the search works out a set of keys
/// K whose projection already fails in the K-history — its *reason*:
/// - a key's own dead end (``StateTransitions/isDeadEnd(_:remaining:reads:)``): that key;
/// - a placed operation's child failed for reasons not naming the operation's key: the
///   child's projection on them is the parent's, so the parent fails for them too;
/// - a read placed without branching: its child's reason (moving the read first breaks
///   no linearization of any K-history that holds its key, and none that does not);
/// - every candidate tried: start from the key of the first return in the event list
///   (the operation no order may place later than here), then add the reasons of the
///   children whose key is already in: the smallest K closed that way. Because that
///   return is also the K-history's first, the K-history's candidates here are exactly
///   the search's candidates on K's keys, each of which fits not or fails within K.
///
/// Projections only grow more constrained as keys are added (an order of a larger
/// history restricts to one of the smaller), so a reason can be widened at will.
///
/// **Learning.** A failed node's projection on its reason is kept as a 128-bit fingerprint
/// (``FingerprintSet``); every node entered is checked against the kept reasons that
/// name the key it changed — the other keys' projections are its parent's, which were
/// not dead, or the search would have jumped back past the parent. This is Lowe's memo
/// for the keys that matter: a key that cannot be linearized is found once, not once per
/// combination of the other keys' states.
///
/// **Backjumping.** When a node fails, the search undoes placements up to the deepest one
/// whose key is in the reason, instead of trying the siblings of operations on other
/// keys, which cannot help.
///
/// By locality (Herlihy & Wing), a failed node always has a one-key reason, and these
/// rules find it: by induction every reason is one key (group), since a child's reason
/// that does not name its own key makes the parent jump back before the closure is
/// formed, the closure from one key then only adds that same key, and every one-group
/// reason is kept apart (``reasonLimit``), so a memo hit returns one group too. Reasons stay sets
/// so that each rule reads as the argument it rests on; the brute-force tests check the
/// whole search against every order (a mutation that drops the closure goes unnoticed
/// for this reason, not for want of tests).
struct KeyedWholeSearch {
  /// Reasons are sets of up to 64 key groups: key `i` is in group `i % 64`, so a reason names whole groups, which is weaker but still true.
  static let groupCount = 64
  /// The most distinct reasons checked apart at every node; beyond that a reason is kept as every key (Lowe's own memo).
  ///
  /// One per group: reasons are single groups (see above), so none is ever widened.
  static let reasonLimit = groupCount

  private struct Frame {
    var operation: Int32
    var stateBefore: Int32
    /// Placed because it changes nothing: no other choice is tried at its node.
    var forced: Bool
    /// Where the reasons of the children of the node this placement made start in `childReasons`.
    var childReasonsStart: Int32
  }

  /// Searches for a linearization of `operations`, where operation `i` belongs to key `keys[i]` and `spaces[k]` names key `k`'s states from 0.
  ///
  /// `spaces[k]` numbers key `k`'s operations in the order of `operations`. States in the
  /// result are 0: a whole state is one name per key, and callers replay the prefix.
  static func run<Transitions: StateTransitions>(
    _ operations: WingGongSearch.Operations, keys: [Int], spaces: inout [Transitions],
    budget: WingGongSearch.Budget = .unlimited
  ) -> WingGongSearch.Result {
    var work = WingGongSearch.Work()
    return run(operations, keys: keys, spaces: &spaces, budget: budget, work: &work)
  }

  /// Searches as ``run(_:keys:spaces:budget:)`` does, adding its cost to `work`.
  static func run<Transitions: StateTransitions>(
    _ operations: WingGongSearch.Operations, keys: [Int], spaces: inout [Transitions],
    budget: WingGongSearch.Budget = .unlimited, work: inout WingGongSearch.Work
  ) -> WingGongSearch.Result {
    let count = operations.count
    let keyCount = spaces.count
    var local = [Int](repeating: 0, count: count)
    var members = [[Int]](repeating: [], count: keyCount)
    for operation in 0..<count {
      local[operation] = members[keys[operation]].count
      members[keys[operation]].append(operation)
    }
    var events = EventList(operations)
    var keyEvents = members.indices.map { key in
      EventList(
        WingGongSearch.Operations(members[key].map { operations[$0] }),
        watching: spaces[key].watches)
    }
    let groupOf = keys.map { $0 % groupCount }
    let allGroups = (0..<keyCount).reduce(UInt64(0)) { $0 | 1 << UInt64($1 % groupCount) }

    // Fingerprints of each group's projection: its operations' Zobrist keys XOR its keys' state hashes.
    let operationKeys = ZobristKeys()
    var groupPrints = [(UInt64, UInt64)](repeating: (0, 0), count: groupCount)
    var wholePrint: (UInt64, UInt64) = (0, 0)
    var states = [Int32](repeating: 0, count: keyCount)
    for key in 0..<keyCount {
      let hash = stateHash(key, 0)
      groupPrints[key % groupCount].0 ^= hash.0
      groupPrints[key % groupCount].1 ^= hash.1
      wholePrint.0 ^= hash.0
      wholePrint.1 ^= hash.1
    }

    var reasons: [UInt64] = []
    var reasonIndex: [UInt64: Int32] = [:]
    var reasonsNaming = [[Int32]](repeating: [], count: groupCount)
    var dead = FingerprintSet()
    var childReasons: [(group: Int, reason: UInt64)] = []
    var stack: [Frame] = []
    stack.reserveCapacity(count)
    var required = operations.entries.reduce(0) { $1.isInfo ? $0 : $0 + 1 }
    var longest = LongestPrefix(state: 0)
    var steps = 0
    var backtracked = false
    defer {
      work.steps += steps
      work.copied += longest.copied
    }

    func fingerprint(of reason: UInt64) -> (UInt64, UInt64) {
      if reason == allGroups { return wholePrint }
      var result: (UInt64, UInt64) = (0, 0)
      var bits = reason
      while bits != 0 {
        let group = bits.trailingZeroBitCount
        result.0 ^= groupPrints[group].0
        result.1 ^= groupPrints[group].1
        bits &= bits - 1
      }
      return result
    }

    /// The kept form of `reason` and its number: itself, or every key once too many are kept.
    func register(_ reason: UInt64) -> (UInt64, Int32) {
      if let known = reasonIndex[reason] { return (reason, known) }
      let kept = reasons.count < reasonLimit ? reason : allGroups
      if let known = reasonIndex[kept] { return (kept, known) }
      let index = Int32(reasons.count)
      reasons.append(kept)
      reasonIndex[kept] = index
      var bits = kept
      while bits != 0 {
        reasonsNaming[bits.trailingZeroBitCount].append(index)
        bits &= bits - 1
      }
      return (kept, index)
    }

    /// Why the node just made by placing `operation` cannot succeed, or 0 when nothing shows it yet.
    func deadReason(after operation: Int) -> UInt64 {
      let group = groupOf[operation]
      for index in reasonsNaming[group] {
        let reason = reasons[Int(index)]
        if dead.contains(fingerprint(of: reason), state: index) { return reason }
      }
      let key = keys[operation]
      let reads = DeadEndReach.reads(backtracked: backtracked)
      if spaces[key].isDeadEnd(states[key], remaining: keyEvents[key], reads: reads) {
        return 1 << UInt64(group)
      }
      return 0
    }

    func setState(of key: Int, to state: Int32) {
      let before = stateHash(key, states[key])
      let after = stateHash(key, state)
      let group = key % groupCount
      groupPrints[group].0 ^= before.0 ^ after.0
      groupPrints[group].1 ^= before.1 ^ after.1
      wholePrint.0 ^= before.0 ^ after.0
      wholePrint.1 ^= before.1 ^ after.1
      states[key] = state
    }

    func toggle(_ operation: Int) {
      let group = groupOf[operation]
      operationKeys.toggle(operation, in: &groupPrints[group])
      operationKeys.toggle(operation, in: &wholePrint)
    }

    func place(_ operation: Int, to state: Int32, forced: Bool) {
      let key = keys[operation]
      stack.append(
        Frame(
          operation: Int32(operation), stateBefore: states[key], forced: forced,
          childReasonsStart: Int32(childReasons.count)))
      events.lift(operation)
      keyEvents[key].lift(local[operation])
      toggle(operation)
      setState(of: key, to: state)
      if !operations[operation].isInfo { required -= 1 }
      if stack.count > longest.count {
        longest.extend(to: stack.count, state: 0)
      }
    }

    /// Fails the current node for `reason`, jumping back; returns where to scan on, or nil when the root failed.
    func backjump(_ reason: UInt64) -> Int32? {
      backtracked = true
      var recordsNode = true
      while !stack.isEmpty {
        longest.keep(stack.lazy.map(\.operation), poppingTo: stack.count - 1)
        let frame = stack.removeLast()
        if recordsNode {
          let (kept, index) = register(reason)
          _ = dead.insert(fingerprint(of: kept), state: index)
        }
        let operation = Int(frame.operation)
        let key = keys[operation]
        events.unlift(operation)
        keyEvents[key].unlift(local[operation])
        toggle(operation)
        setState(of: key, to: frame.stateBefore)
        if !operations[operation].isInfo { required += 1 }
        childReasons.removeSubrange(Int(frame.childReasonsStart)...)
        let bit: UInt64 = 1 << UInt64(groupOf[operation])
        // The parent's projection on the reason is this node's: it fails the same way.
        if reason & bit == 0 {
          recordsNode = false
          continue
        }
        recordsNode = true
        if frame.forced { continue }
        childReasons.append((groupOf[operation], reason))
        return events.next(EventList.callNode(of: operation))
      }
      return nil
    }

    /// The reason of a node whose candidates are all tried, the scan stopped at `node`.
    func exhaustedReason(at node: Int32) -> UInt64 {
      guard node != EventList.end else { return allGroups }
      var reason: UInt64 = 1 << UInt64(groupOf[EventList.operation(node)])
      let start = Int(stack.last?.childReasonsStart ?? 0)
      var grew = true
      while grew {
        grew = false
        for child in childReasons[start...]
        where reason & (1 << UInt64(child.group)) != 0 && child.reason & ~reason != 0 {
          reason |= child.reason
          grew = true
        }
      }
      return reason
    }

    func notLinearizable() -> WingGongSearch.Result {
      .notLinearizable(
        longestPrefix: longest.prefix(sharing: stack.lazy.map(\.operation)), state: 0)
    }

    func unknown() -> WingGongSearch.Result {
      .unknown(longestPrefix: longest.prefix(sharing: stack.lazy.map(\.operation)), state: 0)
    }

    for key in 0..<keyCount
    where spaces[key].isDeadEnd(0, remaining: keyEvents[key], reads: DeadEndReach.thorough) {
      return notLinearizable()
    }
    var cursor = events.first
    var atNodeEntry = true
    var failure: UInt64 = 0
    while true {
      if failure != 0 {
        guard let next = backjump(failure) else { return notLinearizable() }
        failure = 0
        cursor = next
        continue
      }
      if required == 0 { return .linearizable(order: stack.map { Int($0.operation) }) }
      if budget.isSpent(after: steps) { return unknown() }
      steps &+= 1
      if atNodeEntry {
        atNodeEntry = false
        // An operation that changes nothing and fits now is placed without branching.
        var node = events.first
        var forcedPlacement = false
        while node != EventList.end && EventList.isCall(node) {
          let operation = EventList.operation(node)
          let key = keys[operation]
          if operations[operation].leavesStateUnchanged,
            spaces[key].next(from: states[key], by: local[operation]) == states[key]
          {
            place(operation, to: states[key], forced: true)
            failure = deadReason(after: operation)
            atNodeEntry = failure == 0
            forcedPlacement = true
            break
          }
          node = events.next(node)
        }
        if forcedPlacement { continue }
        cursor = events.first
      }
      guard cursor != EventList.end, EventList.isCall(cursor) else {
        failure = exhaustedReason(at: cursor)
        continue
      }
      let operation = EventList.operation(cursor)
      let key = keys[operation]
      let next = spaces[key].next(from: states[key], by: local[operation])
      if next >= 0 {
        place(operation, to: next, forced: false)
        failure = deadReason(after: operation)
        atNodeEntry = failure == 0
        continue
      }
      cursor = events.next(cursor)
    }
  }

  /// Two independent 64-bit hashes of key `key` being in state `state`.
  @inline(__always) private static func stateHash(_ key: Int, _ state: Int32) -> (UInt64, UInt64) {
    let packed = UInt64(key) << 32 | UInt64(UInt32(bitPattern: state))
    return (mix64(packed ^ 0x9E37_79B9_7F4A_7C15), mix64(packed ^ 0xC2B2_AE3D_27D4_EB4F))
  }
}
