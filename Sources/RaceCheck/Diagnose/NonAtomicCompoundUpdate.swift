/// Names `non-atomic-compound-update`: overlapping read-modify-writes, some of whose effects are lost.
enum NonAtomicCompoundUpdate {
  static let compoundUpdates: Set<String> = ["increment", "add"]
  static let updates: Set<String> = ["increment", "add", "set"]

  /// The most lost updates a diagnosis tries: one for a minimized failure, two for one shrinking could not reduce.
  static let maximumLost = 2

  /// The diagnosis, when dropping one or two counter updates that overlapped another update explains the history.
  static func diagnose(_ history: History, initial: CounterModel) -> Diagnosis? {
    let entries = history.entries
    // Only an update that overlapped another one can have lost its effect to it.
    let racing = entries.indices.filter { index in
      compoundUpdates.contains(entries[index].call.operation)
        && entries.indices.contains { other in
          other != index && updates.contains(entries[other].call.operation)
            && overlap(entries[index], entries[other])
        }
    }
    for count in 1...maximumLost {
      for lost in combinations(of: racing, count: count) {
        let hypothesis = Hypothesis<CounterModel> { state, entry in
          lost.contains { entries[$0] == entry } ? .null : CounterModel.correctStep(&state, entry)
        }
        guard let order = hypothesis.witness(for: history, from: initial) else { continue }
        return diagnosis(history, lost: lost, order: order, initial: initial)
      }
    }
    return nil
  }

  private static func diagnosis(
    _ history: History, lost: [Int], order: [Int], initial: CounterModel
  )
    -> Diagnosis
  {
    let entries = history.entries
    let first = entries[lost[0]]
    let rival = entries.first {
      $0 != first && updates.contains($0.call.operation) && overlap(first, $0)
    }!
    let correct = Hypothesis<CounterModel>(step: CounterModel.correctStep)
    let read = correct.replay(order, of: history, from: initial) { candidate, state in
      candidate.call.operation == "get" && candidate.result != .int(state.value)
        ? (candidate, state.value) : nil
    }
    let observed =
      read.map { " and \($0.0.call) returned \($0.0.result) where the model expects \($0.1)" } ?? ""
    let lostCount = lost.count == 1 ? "one update was lost" : "\(lost.count) updates were lost"
    return Diagnosis(
      .nonAtomicCompoundUpdate,
      evidence:
        "\(first.call) on thread \(first.process) overlapped \(rival.call) on thread \(rival.process)\(observed): "
        + "\(lostCount), because each read and write is atomic but the read-modify-write made of them is not"
    )
  }

  static func overlap(_ first: History.Entry, _ second: History.Entry) -> Bool {
    let firstEnd = first.returnTime ?? .max
    let secondEnd = second.returnTime ?? .max
    return !(firstEnd < second.callTime || secondEnd < first.callTime)
  }

  /// The subsets of `elements` with `count` members, in lexicographic order.
  static func combinations(of elements: [Int], count: Int) -> [[Int]] {
    guard count > 0 else { return [[]] }
    guard elements.count >= count else { return [] }
    var result: [[Int]] = []
    for (position, element) in elements.enumerated() {
      for rest in combinations(of: Array(elements[(position + 1)...]), count: count - 1) {
        result.append([element] + rest)
      }
    }
    return result
  }
}
