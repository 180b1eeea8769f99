extension RecordedHistory {
  /// A history recorded by a run, for the model named `model` starting in `initial`, its times counted from its first call.
  ///
  /// It is the one conversion of a run's history to a file's: history files and repro
  /// files are written from it.
  package init(_ history: History, model: String, initial: Value?, meta: Value? = nil) {
    let origin = history.operations.map(\.call).min() ?? 0
    self.init(
      model: model, initial: initial, meta: meta,
      operations: history.operations.map { operation in
        var shifted = operation
        shifted.call -= origin
        shifted.return = operation.status == .info ? nil : operation.return.map { $0 - origin }
        return shifted
      })
  }
}
