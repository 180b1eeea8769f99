extension History {
  /// The operations as a file writes them: times counted from the first call, and no return for an unknown outcome.
  package var operationsFromFirstCall: [RecordedHistory.Operation] {
    let origin = operations.map(\.call).min() ?? 0
    return operations.map { operation in
      var shifted = operation
      shifted.call -= origin
      shifted.return = operation.status == .info ? nil : operation.return.map { $0 - origin }
      return shifted
    }
  }
}

extension RecordedHistory {
  /// A history recorded by a run, for the model named `model` starting in `initial`, its times counted from its first call.
  package init(_ history: History, model: String, initial: Value?, meta: Value? = nil) {
    self.init(
      model: model, initial: initial, meta: meta, operations: history.operationsFromFirstCall)
  }
}
