/// Names `non-atomic-compound-update`: overlapping read-modify-writes, some of whose effects are lost.
///
/// Two kinds of operation are read-modify-writes: a counter's `increment` and `add` steps,
/// by the counter's contract, and an operation a spec gives its own model closure, which
/// may make several calls into the subject (`set(get(k) + 1, k)`). The hypotheses are the
/// same for both: dropping the effect of one or two of them that overlapped another
/// update makes the history linearizable, as a write computed from a stale read does, or,
/// when the stale write overwrote another update (an increment over a `set`), splitting
/// them into a read and a later write computed from it does.
enum NonAtomicCompoundUpdate {
  /// The most lost updates a diagnosis tries: one for a minimized failure, two for one shrinking could not reduce.
  static let maximumLost = 2

  /// The diagnosis, when dropping one or two counter updates that overlapped another update explains the history.
  ///
  /// The counter's steps say what each operation is, whatever the spec calls it: `increment`
  /// and `add` are read-modify-writes, `set` another update, `get` the read that saw the loss.
  static func diagnose<Subject>(_ history: History, counter spec: Spec<Subject, CounterModel>)
    -> Diagnosis?
  {
    let steps = spec.steps(of: history)
    let isCompound = { (index: Int) -> Bool in
      switch steps[index] {
      case .increment?, .add?: true
      default: false
      }
    }
    let isUpdate = { (index: Int) -> Bool in
      if case .set? = steps[index] { return true }
      return isCompound(index)
    }
    let racing = racingUpdates(in: history, isCompound: isCompound, isUpdate: isUpdate)
    let correct = Hypothesis<CounterModel>(modelSides: spec.modelSides(of: history))
    guard
      let (lost, order) = lostUpdates(
        history, racing: racing, initial: spec.model, step: correct.step)
    else {
      // An increment that overwrote a `set` from its stale read loses the set, not itself.
      return staleReads(history, initial: spec.model, racing: racing, step: correct.step).map {
        staleReadDiagnosis(
          $0.split, of: history, isUpdate: isUpdate, atomicParts: "each read and write")
      }
    }
    let read = correct.replay(order, from: spec.model) { index, state -> (Int, Value)? in
      guard case .get? = steps[index], history.operations[index].result != .int(state.value)
      else { return nil }
      return (index, Value.int(state.value))
    }
    return diagnosis(
      lost: lost, of: history, isUpdate: isUpdate, read: read, atomicParts: "each read and write")
  }

  /// The diagnosis, when dropping one or two of the spec's own updates that overlapped another update explains the history.
  ///
  /// The spec's own updates are its operations with a model closure that return nothing;
  /// another update is any operation that returns nothing. The model is the spec's: each
  /// operation's step is its operation's model side.
  static func diagnose<Subject, Model>(_ history: History, spec: Spec<Subject, Model>)
    -> Diagnosis?
  {
    let operations = history.operations.map { spec.operation(named: $0.name) }
    let isCompound = { (index: Int) in
      operations[index].map { !$0.mapsToVocabulary && !$0.returnsValue } ?? false
    }
    let isUpdate = { (index: Int) in operations[index].map { !$0.returnsValue } ?? false }
    let racing = racingUpdates(in: history, isCompound: isCompound, isUpdate: isUpdate)
    let correct = Hypothesis<Model>(modelSides: spec.modelSides(of: history))
    guard
      let (lost, order) = lostUpdates(
        history, racing: racing, initial: spec.model, step: correct.step)
    else {
      return staleReads(history, initial: spec.model, racing: racing, step: correct.step).map {
        staleReadDiagnosis(
          $0.split, of: history, isUpdate: isUpdate,
          atomicParts: "each call \(history.operations[$0.split[0]].name) makes")
      }
    }
    let read = correct.replay(order, from: spec.model) { index, state -> (Int, Value)? in
      var after = state
      guard operations[index]?.returnsValue == true, let expected = correct.step(&after, index),
        expected != history.operations[index].result
      else { return nil }
      return (index, expected)
    }
    return diagnosis(
      lost: lost, of: history, isUpdate: isUpdate, read: read,
      atomicParts: "each call \(history.operations[lost[0]].name) makes")
  }

  /// The diagnosis of updates that wrote from a stale read: which update overlapped which, and why.
  private static func staleReadDiagnosis(
    _ split: [Int], of history: History, isUpdate: (Int) -> Bool, atomicParts: String
  ) -> Diagnosis {
    let first = history.operations[split[0]]
    let rival = history.operations[rival(of: split[0], in: history, isUpdate: isUpdate)]
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

  /// The diagnosis's sentence: which update overlapped which, the read that saw the loss (its index and the model's result), and why.
  private static func diagnosis(
    lost: [Int], of history: History, isUpdate: (Int) -> Bool, read: (Int, Value)?,
    atomicParts: String
  ) -> Diagnosis {
    let first = history.operations[lost[0]]
    let rival = history.operations[rival(of: lost[0], in: history, isUpdate: isUpdate)]
    let observed =
      read.map {
        let operation = history.operations[$0.0]
        return
          " and \(operation.callText) returned \(operation.result) where the model expects \($0.1)"
      } ?? ""
    return Diagnosis(
      .nonAtomicCompoundUpdate,
      evidence:
        "\(first.callText) on thread \(first.process) overlapped \(rival.callText) on thread \(rival.process)\(observed): "
        + "\(lostCount(lost)), because \(atomicParts) is atomic but the read-modify-write made of them is not"
    )
  }

  /// The index of the update that overlapped operation `first`, one with its first argument (the same key) where there is one.
  ///
  /// Only updates that overlapped another are tried as lost or stale, so there is one.
  static func rival(of first: Int, in history: History, isUpdate: (Int) -> Bool) -> Int {
    let operations = history.operations
    let overlapping = operations.indices.filter {
      $0 != first && isUpdate($0) && overlap(operations[first], operations[$0])
    }
    return overlapping.first { operations[$0].arguments.first == operations[first].arguments.first }
      ?? overlapping[0]
  }

  /// The indexes of the compound updates of `history` that overlapped another update: only those can have lost their effect to it.
  static func racingUpdates(
    in history: History, isCompound: (Int) -> Bool, isUpdate: (Int) -> Bool
  ) -> [Int] {
    let operations = history.operations
    return operations.indices.filter { index in
      isCompound(index)
        && operations.indices.contains { other in
          other != index && isUpdate(other) && overlap(operations[index], operations[other])
        }
    }
  }

  /// The fewest of `racing` whose effects, dropped, make the history linearizable, with the witness order.
  static func lostUpdates<State: Hashable>(
    _ history: History, racing: [Int], initial: State,
    step: @escaping (inout State, Int) -> Value?
  ) -> (lost: [Int], order: [Int])? {
    for count in 1...maximumLost {
      for lost in combinations(of: racing, count: count) {
        let hypothesis = Hypothesis<State> { state, index in
          lost.contains(index) ? .null : step(&state, index)
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
