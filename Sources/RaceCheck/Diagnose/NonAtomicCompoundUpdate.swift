/// Names `non-atomic-compound-update`: two overlapping read-modify-writes, one of whose effect is lost.
enum NonAtomicCompoundUpdate {
  static let compoundUpdates: Set<String> = ["increment", "add"]
  static let updates: Set<String> = ["increment", "add", "set"]

  /// The diagnosis, when dropping one of two overlapping counter updates explains the history.
  static func diagnose(_ history: History, initial: CounterModel) -> Diagnosis? {
    let entries = history.entries
    for (index, entry) in entries.enumerated() where compoundUpdates.contains(entry.call.operation)
    {
      guard
        let rival = entries.indices.first(where: {
          $0 != index && updates.contains(entries[$0].call.operation) && overlap(entry, entries[$0])
        })
      else { continue }
      let lost = Hypothesis<CounterModel> { state, candidate in
        candidate == entry ? .null : CounterModel.correctStep(&state, candidate)
      }
      guard let order = lost.witness(for: history, from: initial) else { continue }
      let correct = Hypothesis<CounterModel>(step: CounterModel.correctStep)
      let read = correct.replay(order, of: history, from: initial) { candidate, state in
        candidate.call.operation == "get" && candidate.result != .int(state.value)
          ? (candidate, state.value) : nil
      }
      let observed =
        read.map { " and \($0.0.call) returned \($0.0.result) where the model expects \($0.1)" }
        ?? ""
      return Diagnosis(
        .nonAtomicCompoundUpdate,
        evidence:
          "\(entry.call) on thread \(entry.process) overlapped \(entries[rival].call) on thread \(entries[rival].process)\(observed): "
          + "one update was lost, because each read and write is atomic but the read-modify-write made of them is not"
      )
    }
    return nil
  }

  static func overlap(_ first: History.Entry, _ second: History.Entry) -> Bool {
    let firstEnd = first.returnTime ?? .max
    let secondEnd = second.returnTime ?? .max
    return !(firstEnd < second.callTime || secondEnd < first.callTime)
  }
}
