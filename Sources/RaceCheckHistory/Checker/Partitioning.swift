/// Splits a history into parts that can be checked on their own (P-compositionality).
///
/// Linearizability is local (Herlihy & Wing): a history of independent objects is
/// linearizable exactly when each object's sub-history is. A map whose operations each
/// name one key is a set of independent registers, so a ``KeyedHistoryModel`` history
/// splits by key — unless an operation spans keys (`count`, `keys`), which keeps it whole.
/// Each part also leaves out what cannot matter: `fail` operations (they took no
/// effect) and `info` operations that would change nothing whatever they returned.
struct Partition<Model: HistoryModel>: Sendable {
  /// The key of the part, or nil for a whole history.
  var key: String?
  /// The operations of the part, as indexes into the history.
  var operations: [Int]
  /// The part's initial state.
  var initial: Model

  /// The parts of `history`: one per key when the model allows it and `split` is set, else one.
  static func parts(of history: TypedHistory<Model>, split: Bool) -> [Partition] {
    let kept = (0..<history.count).filter { index in
      switch history.statuses[index] {
      case .fail: return false
      case .info: return !history.leavesStateUnchanged(index)
      case .ok: return true
      }
    }
    if split, let keyed = Model.self as? any KeyedHistoryModel.Type,
      let parts = byKey(keyed, history, kept)
    {
      return parts
    }
    return [Partition(key: nil, operations: kept, initial: history.initial)]
  }

  private static func byKey<Keyed: KeyedHistoryModel>(
    _: Keyed.Type, _ history: TypedHistory<Model>, _ kept: [Int]
  ) -> [Partition]? {
    // Keys numbered in order of first use: one lookup an operation.
    var numbers: [String: Int] = [:]
    numbers.reserveCapacity(min(kept.count, 1 << 12))
    var keys: [String] = []
    var keyOfKept: [Int] = []
    keyOfKept.reserveCapacity(kept.count)
    for index in kept {
      // Keyed == Model: the cast only names the conformance the caller found at run time.
      guard let key = Keyed.key(of: history.steps[index] as! Keyed.Step) else { return nil }
      let number = numbers[key, default: keys.count]
      if number == keys.count {
        numbers[key] = number
        keys.append(key)
      }
      keyOfKept.append(number)
    }
    // Each part's operations in an array of its exact size: a thousand keys, a thousand allocations.
    var sizes = [Int](repeating: 0, count: keys.count)
    for number in keyOfKept { sizes[number] += 1 }
    var members = sizes.map { size in
      var operations: [Int] = []
      operations.reserveCapacity(size)
      return operations
    }
    for (index, number) in zip(kept, keyOfKept) { members[number].append(index) }
    let initial = history.initial as! Keyed
    return keys.indices.map { number in
      Partition(
        key: keys[number], operations: members[number],
        initial: initial.restricted(to: keys[number]) as! Model)
    }
  }
}
