/// Names the `data-race` family from results: a write whose effect readers saw late, or not at all.
///
/// A wrapper whose writes run asynchronously is linearizable only if its reads are
/// ordered after the writes already made (a serial queue, or a barrier on the wrapper's
/// own concurrent queue). When the history is explained once every write may take
/// effect at any time after its call, and not otherwise, the reads were not ordered
/// with the writes: the two raced.
enum UnorderedWrite {
  /// The operations of each built-in model that change its state.
  static let writes: [String: Set<String>] = [
    ArrayModel.name: ["append", "insert", "remove", "removeLast", "replace"],
    DictionaryModel.name: ["set", "remove"],
    RegisterModel.name: ["write"],
  ]

  /// The diagnosis, when letting writes take effect late explains the history.
  static func diagnose<Model: HistoryModel>(_ history: History, initial: Model) -> Diagnosis? {
    guard let writes = writes[Model.name] else { return nil }
    var unordered = history
    for index in unordered.operations.indices
    where writes.contains(unordered.operations[index].name) {
      unordered.operations[index].return = nil
    }
    let hypothesis = Hypothesis<Model>(step: Model.correctStep)
    guard hypothesis.witness(for: unordered, from: initial) != nil else { return nil }
    // The first write that a later read on the same thread did not see shows the race best.
    let entries = history.operations
    let write = entries.first { write in
      writes.contains(write.name)
        && entries.contains {
          $0.process == write.process && $0.call > (write.return ?? .max)
            && !writes.contains($0.name)
        }
    }
    return Diagnosis(
      .dataRace,
      evidence: (write.map {
        "\($0.callText) had returned on thread \($0.process), yet a later read did not see it; "
      } ?? "")
        + "the history is explained only if writes take effect at some later time: the reads are not ordered "
        + "after the writes, which run unsynchronized with them")
  }
}
