/// Names `insert-at-count-rejected`: an insert guarded by `index < count` drops inserts at `count`.
enum InsertAtCountRejected {
  /// The diagnosis, when the history is explained by an array whose inserts at `count` do nothing.
  static func diagnose(_ history: History, initial: ArrayModel) -> Diagnosis? {
    guard history.operations.contains(where: { $0.name == "insert" }) else { return nil }
    let buggy = Hypothesis<ArrayModel> { state, entry in
      if entry.name == "insert", let index = entry.arguments.last?.intValue,
        index == state.elements.count
      {
        return .null
      }
      return ArrayModel.correctStep(&state, entry)
    }
    guard let order = buggy.witness(for: history, from: initial) else { return nil }
    return buggy.replay(order, of: history, from: initial) { entry, state in
      guard entry.name == "insert",
        entry.arguments.last?.intValue == state.elements.count
      else { return nil }
      return Diagnosis(
        .insertAtCountRejected,
        evidence:
          "\(entry.callText) on an array of \(state.elements.count) element\(state.elements.count == 1 ? "" : "s") had no effect, "
          + "yet inserting at count is valid and appends: the guard must accept index <= count, not index < count"
      )
    }
  }
}
