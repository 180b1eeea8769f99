/// Names `insert-at-count-rejected`: an insert guarded by `index < count` drops inserts at `count`.
enum InsertAtCountRejected {
  /// The diagnosis, when the history is explained by an array whose inserts at `count` do nothing.
  ///
  /// An insert is any operation whose step in the array model is `insert(v, i)`, whatever
  /// the spec calls it.
  static func diagnose<Subject>(_ history: History, spec: Spec<Subject, ArrayModel>)
    -> Diagnosis?
  {
    let insertIndexes = spec.steps(of: history).map { step -> Int? in
      guard case .insert(_, let index)? = step else { return nil }
      return index
    }
    guard insertIndexes.contains(where: { $0 != nil }) else { return nil }
    let correct = Hypothesis<ArrayModel>(modelSides: spec.modelSides(of: history))
    let buggy = Hypothesis<ArrayModel> { state, index in
      insertIndexes[index] == state.count ? .null : correct.step(&state, index)
    }
    guard let order = buggy.witness(for: history, from: spec.model) else { return nil }
    return buggy.replay(order, from: spec.model) { index, state in
      guard insertIndexes[index] == state.count else { return nil }
      return Diagnosis(
        .insertAtCountRejected,
        evidence:
          "\(history.operations[index].callText) on an array of \(state.count) element\(state.count == 1 ? "" : "s") had no effect, "
          + "yet inserting at count is valid and appends: the guard must accept index <= count, not index < count"
      )
    }
  }
}
