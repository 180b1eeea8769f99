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
    // One pass, reading each operation's fields in place: copying an operation whole
    // retains and releases its name, arguments and result, a tenth of checking a
    // 100k-operation key-value history.
    let operations = recorded.operations
    let count = operations.count
    steps = []
    steps.reserveCapacity(count)
    results = []
    results.reserveCapacity(count)
    callTimes = []
    callTimes.reserveCapacity(count)
    returnTimes = []
    returnTimes.reserveCapacity(count)
    statuses = []
    statuses.reserveCapacity(count)
    for index in 0..<count {
      do {
        steps.append(try Model.step(operations[index].name, operations[index].arguments))
      } catch {
        throw .operation(index: index, source: operations[index].source, .model(error))
      }
      results.append(operations[index].result)
      callTimes.append(operations[index].call)
      returnTimes.append(operations[index].return ?? .max)
      statuses.append(operations[index].status)
    }
  }

  /// Whether operation `index` is known never to change the state: a read, or an unknown outcome of one.
  func leavesStateUnchanged(_ index: Int) -> Bool {
    Model.leavesStateUnchanged(
      steps[index], result: statuses[index] == .info ? Value?.none : .some(results[index]))
  }
}
