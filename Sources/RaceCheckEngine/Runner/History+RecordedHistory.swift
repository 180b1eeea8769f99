// A run's history in the history file's terms: the file format lives in RaceCheckHistory, which knows
// nothing of scenarios, so the conversion from what a runner records lives here.

extension HistoryFile {
  /// The operations of `history` as the file writes them, with times counted from its first call.
  static func operations(_ history: History) -> [Operation] {
    let origin = history.entries.map(\.callTime).min() ?? 0
    return history.entries.map { entry in
      Operation(
        process: entry.process, op: entry.call.operation, args: entry.call.arguments,
        call: entry.callTime - origin, return: entry.returnTime.map { $0 - origin },
        result: entry.result.isNull ? Value?.none : .some(entry.result),
        status: entry.status == .ok ? nil : entry.status)
    }
  }
}

extension RecordedHistory {
  /// A history recorded by a run, for the model named `model` starting in `initial`.
  package init(_ history: History, model: String, initial: Value?, meta: Value? = nil) {
    let origin = history.entries.map(\.callTime).min() ?? 0
    self.init(
      model: model, initial: initial, meta: meta,
      operations: history.entries.map { entry in
        Operation(
          process: .int(entry.process), name: entry.call.operation, arguments: entry.call.arguments,
          call: entry.callTime - origin,
          return: entry.status == .info ? nil : entry.returnTime.map { $0 - origin },
          result: entry.result, status: entry.status)
      })
  }
}
