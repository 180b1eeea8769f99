/// A recorded history decoded with its model: each operation's step, result and interval, ready to search.
struct TypedHistory<Model: HistoryModel>: Sendable {
  var initial: Model
  var steps: [Model.Step]
  var results: [Value]
  var callTimes: [Int64]
  /// `Int64.max` when the outcome is unknown.
  var returnTimes: [Int64]
  var statuses: [RecordedHistory.Operation.Status]

  var count: Int { steps.count }

  /// Decodes every operation with the model, or says which one the model rejects and why.
  init(_ recorded: RecordedHistory) throws(HistoryFileError) {
    do {
      initial =
        try recorded.initial.map { value throws(ModelError) in try Model(state: value) }
        ?? Model()
    } catch {
      throw .initialState(error)
    }
    steps = []
    steps.reserveCapacity(recorded.operations.count)
    for (index, operation) in recorded.operations.enumerated() {
      do {
        steps.append(try Model.step(operation.name, operation.arguments))
      } catch {
        throw .operation(index: index, source: operation.source, .model(error))
      }
    }
    results = recorded.operations.map(\.result)
    callTimes = recorded.operations.map(\.call)
    returnTimes = recorded.operations.map { $0.return ?? .max }
    statuses = recorded.operations.map(\.status)
  }

  /// Whether operation `index` is known never to change the state: a read, or an unknown outcome of one.
  func leavesStateUnchanged(_ index: Int) -> Bool {
    Model.leavesStateUnchanged(
      steps[index], result: statuses[index] == .info ? Value?.none : .some(results[index]))
  }
}
