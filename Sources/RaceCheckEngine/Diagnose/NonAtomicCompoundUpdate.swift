/// Names `non-atomic-compound-update`: overlapping read-modify-writes, some of whose effects are lost.
///
/// Two kinds of operation are read-modify-writes: a counter's `increment` and `add`, by
/// the counter's contract, and an operation a spec gives its own model closure, which
/// may make several calls into the subject (`set(get(k) + 1, k)`). The hypotheses are the
/// same for both: dropping the effect of one or two of them that overlapped another
/// update makes the history linearizable, as a write computed from a stale read does, or,
/// when the stale write overwrote another update (an increment over a `set`), splitting
/// them into a read and a later write computed from it does.
enum NonAtomicCompoundUpdate {
  static let compoundUpdates: Set<String> = ["increment", "add"]
  static let updates: Set<String> = ["increment", "add", "set"]

  /// The most lost updates a diagnosis tries: one for a minimized failure, two for one shrinking could not reduce.
  static let maximumLost = 2

  /// The diagnosis, when dropping one or two counter updates that overlapped another update explains the history.
  static func diagnose(_ history: History, initial: CounterModel) -> Diagnosis? {
    let entries = history.operations
    let racing = racingUpdates(
      in: entries, isCompound: { compoundUpdates.contains($0.name) },
      isUpdate: { updates.contains($0.name) })
    guard
      let (lost, order) = lostUpdates(
        history, racing: racing, initial: initial, step: CounterModel.correctStep)
    else {
      // An increment that overwrote a `set` from its stale read loses the set, not itself.
      return staleReads(history, initial: initial, racing: racing, step: CounterModel.correctStep)
        .map {
          staleReadDiagnosis(
            $0.split, of: history, writes: updates, atomicParts: "each read and write")
        }
    }
    let first = entries[lost[0]]
    let rival = rival(of: first, in: entries, isUpdate: { updates.contains($0.name) })
    let correct = Hypothesis<CounterModel>(step: CounterModel.correctStep)
    let read = correct.replay(order, of: history, from: initial) { candidate, state in
      candidate.name == "get" && candidate.result != .int(state.value)
        ? (candidate, Value.int(state.value)) : nil
    }
    return diagnosis(
      first: first, rival: rival, read: read, lost: lost, atomicParts: "each read and write")
  }

  /// The diagnosis, when dropping one or two of the spec's own updates that overlapped another update explains the history.
  ///
  /// The spec's own updates are its operations with a model closure that return nothing;
  /// another update is any operation that returns nothing. The model is the spec's: each
  /// entry's step is its operation's model side.
  static func diagnose<Subject, Model>(_ history: History, spec: Spec<Subject, Model>)
    -> Diagnosis?
  {
    let own = Set(spec.operations.filter { !$0.mapsToVocabulary && !$0.returnsValue }.map(\.name))
    let writes = Set(spec.operations.filter { !$0.returnsValue }.map(\.name))
    let entries = history.operations
    let racing = racingUpdates(
      in: entries, isCompound: { own.contains($0.name) },
      isUpdate: { writes.contains($0.name) })
    let steps = spec.boundSteps(for: history)
    let step: (inout Model, RecordedHistory.Operation) -> Value? = { state, entry in
      steps[entry].map { $0(&state) }
    }
    guard
      let (lost, order) = lostUpdates(history, racing: racing, initial: spec.model, step: step)
    else {
      return staleReads(history, initial: spec.model, racing: racing, step: step).map {
        staleReadDiagnosis(
          $0.split, of: history, writes: writes,
          atomicParts: "each call \(history.operations[$0.split[0]].name) makes")
      }
    }
    let first = entries[lost[0]]
    let rival = rival(of: first, in: entries, isUpdate: { writes.contains($0.name) })
    let correct = Hypothesis<Model>(step: step)
    let read = correct.replay(order, of: history, from: spec.model) {
      candidate, state -> (RecordedHistory.Operation, Value)? in
      var after = state
      guard spec.operation(named: candidate.name)?.returnsValue == true,
        let expected = step(&after, candidate), expected != candidate.result
      else { return nil }
      return (candidate, expected)
    }
    return diagnosis(
      first: first, rival: rival, read: read, lost: lost,
      atomicParts: "each call \(first.name) makes")
  }

  /// The diagnosis of updates that wrote from a stale read: which update overlapped which, and why.
  private static func staleReadDiagnosis(
    _ split: [Int], of history: History, writes: Set<String>, atomicParts: String
  ) -> Diagnosis {
    let entries = history.operations
    let first = entries[split[0]]
    let rival = rival(of: first, in: entries, isUpdate: { writes.contains($0.name) })
    let updates = split.count == 1 ? "its write" : "the writes of \(split.count) such updates"
    return Diagnosis(
      .nonAtomicCompoundUpdate,
      evidence:
        "\(first.callText) on thread \(first.process) overlapped \(rival.callText) on thread \(rival.process): "
        + "the history is explained only if \(first.callText) read the state, another update took "
        + "effect, and then \(updates) overwrote it with a value computed from the stale read, "
        + "because \(atomicParts) is atomic but the read-modify-write made of them is not"
    )
  }

  /// The diagnosis's sentence: which update overlapped which, the read that saw the loss, and why.
  private static func diagnosis(
    first: RecordedHistory.Operation, rival: RecordedHistory.Operation,
    read: (RecordedHistory.Operation, Value)?, lost: [Int],
    atomicParts: String
  ) -> Diagnosis {
    let observed =
      read.map { " and \($0.0.callText) returned \($0.0.result) where the model expects \($0.1)" }
      ?? ""
    return Diagnosis(
      .nonAtomicCompoundUpdate,
      evidence:
        "\(first.callText) on thread \(first.process) overlapped \(rival.callText) on thread \(rival.process)\(observed): "
        + "\(lostCount(lost)), because \(atomicParts) is atomic but the read-modify-write made of them is not"
    )
  }

  /// The update that overlapped `first`, one with its first argument (the same key) where there is one.
  ///
  /// Only updates that overlapped another are tried as lost or stale, so there is one.
  static func rival(
    of first: RecordedHistory.Operation, in entries: [RecordedHistory.Operation],
    isUpdate: (RecordedHistory.Operation) -> Bool
  ) -> RecordedHistory.Operation {
    let overlapping = entries.filter { $0 != first && isUpdate($0) && overlap(first, $0) }
    return overlapping.first { $0.arguments.first == first.arguments.first }
      ?? overlapping[0]
  }

  /// The compound updates of `entries` that overlapped another update: only those can have lost their effect to it.
  static func racingUpdates(
    in entries: [RecordedHistory.Operation], isCompound: (RecordedHistory.Operation) -> Bool,
    isUpdate: (RecordedHistory.Operation) -> Bool
  ) -> [Int] {
    entries.indices.filter { index in
      isCompound(entries[index])
        && entries.indices.contains { other in
          other != index && isUpdate(entries[other]) && overlap(entries[index], entries[other])
        }
    }
  }

  /// The fewest of `racing` whose effects, dropped, make the history linearizable, with the witness order.
  static func lostUpdates<State: Hashable>(
    _ history: History, racing: [Int], initial: State,
    step: @escaping (inout State, RecordedHistory.Operation) -> Value?
  ) -> (lost: [Int], order: [Int])? {
    let entries = history.operations
    for count in 1...maximumLost {
      for lost in combinations(of: racing, count: count) {
        let hypothesis = Hypothesis<State> { state, entry in
          lost.contains { entries[$0] == entry } ? .null : step(&state, entry)
        }
        if let order = hypothesis.witness(for: history, from: initial) { return (lost, order) }
      }
    }
    return nil
  }

  private static func lostCount(_ lost: [Int]) -> String {
    lost.count == 1 ? "one update was lost" : "\(lost.count) updates were lost"
  }

  static func overlap(_ first: RecordedHistory.Operation, _ second: RecordedHistory.Operation)
    -> Bool
  {
    let firstEnd = first.return ?? .max
    let secondEnd = second.return ?? .max
    return !(firstEnd < second.call || secondEnd < first.call)
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
