extension NonAtomicCompoundUpdate {
  /// A model state with the states that split compound updates read, keyed by the update's index in the history.
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
    step: @escaping (inout Model, Int) -> Value?
  ) -> (split: [Int], order: [Int], history: History)? {
    guard let patch = patcher(for: initial) else { return nil }
    for count in 1...maximumLost {
      for split in combinations(of: racing, count: count) {
        // The split updates' halves, each at the update's place in time, with what each operation of the new history is.
        var halves = History(operations: [])
        var roles: [Half] = []
        for (index, operation) in history.operations.enumerated() {
          if split.contains(index) {
            halves.operations += [operation, operation]
            roles += [.read(of: index), .write(of: index)]
          } else {
            halves.operations.append(operation)
            roles.append(.whole(index))
          }
        }
        let hypothesis = Hypothesis<StaleState<Model>> { state, half in
          switch roles[half] {
          case .whole(let index):
            return step(&state.model, index)
          case .read(let index):
            state.reads[index] = state.model
            return .null
          case .write(let index):
            // A write before its read fits no order: a result no operation has rejects it.
            guard let read = state.reads.removeValue(forKey: index) else {
              return .string("written before it was read")
            }
            var written = read
            _ = step(&written, index)
            state.model = patch(state.model, read, written)
            return .null
          }
        }
        if let order = hypothesis.witness(for: halves, from: StaleState(model: initial)) {
          return (split, order, halves)
        }
      }
    }
    return nil
  }

  /// What an operation of a history whose split updates are made of two halves is, by the index of the original history's operation.
  private enum Half {
    /// An operation that is not split.
    case whole(Int)
    /// The read of a split update.
    case read(of: Int)
    /// The later write of a split update, computed from its read.
    case write(of: Int)
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
