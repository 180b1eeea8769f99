extension NonAtomicCompoundUpdate {
  /// A model state with the states that split compound updates read, keyed by the update's entry.
  struct StaleState<Model: Hashable>: Hashable {
    var model: Model
    var reads: [Int: Model] = [:]
  }

  /// The diagnosis, when one or two of the spec's own updates, each split into a read and a later write computed from it, explain the history.
  ///
  /// This is what a compound of atomic calls does, `d[k] = (d[k] ?? 0) + 1`: it reads at
  /// one moment and writes at a later one, and whatever another thread did in between to
  /// what it writes is overwritten. Each half takes effect between the update's call and
  /// its return, the read first. The write changes what the update's model closure
  /// changes in the state it read: the entries of an object state that differ (a
  /// dictionary's keys), or the whole state of a model whose state is one integer (a
  /// counter) or that is not a ``HistoryModel``. A built-in model with another shape of
  /// state is not tried.
  static func staleReads<Model: Hashable>(
    _ history: History, initial: Model, racing: [Int],
    step: @escaping (inout Model, RecordedHistory.Operation) -> Value?
  ) -> (split: [Int], order: [Int], history: History)? {
    guard let patch = patcher(for: initial) else { return nil }
    let entries = history.operations
    for count in 1...maximumLost {
      for split in combinations(of: racing, count: count) {
        var halves = History(operations: [])
        var roles: [RecordedHistory.Operation: (index: Int, isRead: Bool)] = [:]
        for (index, entry) in entries.enumerated() {
          guard split.contains(index) else {
            halves.operations.append(entry)
            continue
          }
          var read = entry
          read.name += " (read)"
          var write = entry
          write.name += " (write)"
          roles[read] = (index, true)
          roles[write] = (index, false)
          halves.operations += [read, write]
        }
        let hypothesis = Hypothesis<StaleState<Model>> { state, entry in
          guard let role = roles[entry] else { return step(&state.model, entry) }
          if role.isRead {
            state.reads[role.index] = state.model
            return .null
          }
          // A write before its read fits no order: a result no entry has rejects it.
          guard let read = state.reads.removeValue(forKey: role.index) else {
            return .string("written before it was read")
          }
          var written = read
          _ = step(&written, entries[role.index])
          state.model = patch(state.model, read, written)
          return .null
        }
        if let order = hypothesis.witness(for: halves, from: StaleState(model: initial)) {
          return (split, order, halves)
        }
      }
    }
    return nil
  }

  /// How a split update's write changes the current state: by what its model closure changed in the state it read.
  private static func patcher<Model>(for model: Model) -> ((Model, Model, Model) -> Model)? {
    guard let historyModel = model as? any HistoryModel else { return { _, _, written in written } }
    return objectPatcher(for: historyModel).map { patch in
      { current, read, written in patch(current, read, written) as! Model }
    }
  }

  private static func objectPatcher<Model: HistoryModel>(for model: Model) -> (
    (Any, Any, Any) -> Any
  )? {
    // A stale write of a single number stores the whole of it.
    if case .int = model.state { return { _, _, written in written } }
    guard case .object = model.state else { return nil }
    return { current, read, written in
      let current = current as! Model
      guard case .object(var members) = current.state,
        case .object(let before) = (read as! Model).state,
        case .object(let after) = (written as! Model).state
      else { return current }
      for key in Set(before.keys).union(after.keys) where before[key] != after[key] {
        members[key] = after[key]
      }
      return (try? Model(state: .object(members))) ?? current
    }
  }
}
