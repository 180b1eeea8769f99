/// Names the `data-race` family from results: a write whose effect readers saw late, or not at all.
///
/// A wrapper whose writes run asynchronously is linearizable only if its reads are
/// ordered after the writes already made (a serial queue, or a barrier on the wrapper's
/// own concurrent queue). When the history is explained once every write may take
/// effect at any time after its call, and not otherwise, the reads were not ordered
/// with the writes: the two raced.
enum UnorderedWrite {
  /// Whether each change of the model's state is one write the subject stores, which these hypotheses let take effect late or never: an array's, a dictionary's or a register's.
  ///
  /// A counter's increments are read-modify-writes by its contract (``NonAtomicCompoundUpdate``
  /// names their loss), and the other built-in models' writes either return what they found
  /// (a set's `insert`, a queue's `dequeue`) or compute from it (a key-value store's
  /// `append`), which a late write does not model.
  static func storesEachWrite<Model: HistoryModel>(_: Model.Type) -> Bool {
    Model.self == ArrayModel.self || Model.self == DictionaryModel.self
      || Model.self == RegisterModel.self
  }

  /// Whether each operation of `history`, by index, is a write: a step of the model that changes its state.
  static func writes<Model: HistoryModel>(_ steps: [Model.Step?], of _: Model.Type) -> [Bool] {
    steps.map { step in step.map { !Model.leavesStateUnchanged($0, result: nil) } ?? false }
  }

  /// The diagnosis, when letting writes take effect late explains the history.
  static func diagnose<Subject, Model: HistoryModel>(
    _ history: History, spec: Spec<Subject, Model>
  ) -> Diagnosis? {
    guard storesEachWrite(Model.self) else { return nil }
    let isWrite = writes(spec.steps(of: history), of: Model.self)
    var unordered = history
    for index in unordered.operations.indices where isWrite[index] {
      unordered.operations[index].return = nil
    }
    let hypothesis = Hypothesis<Model>(modelSides: spec.modelSides(of: history))
    guard hypothesis.witness(for: unordered, from: spec.model) != nil else { return nil }
    // The first write that a later read on the same thread did not see shows the race best.
    let operations = history.operations
    let write = operations.indices.first { write in
      isWrite[write]
        && operations.indices.contains {
          operations[$0].process == operations[write].process
            && operations[$0].call > (operations[write].return ?? .max) && !isWrite[$0]
        }
    }.map { operations[$0] }
    return Diagnosis(
      .dataRace,
      evidence: (write.map {
        "\($0.callText) had returned on thread \($0.process), yet a later read did not see it; "
      } ?? "")
        + "the history is explained only if writes take effect at some later time: the reads are not ordered "
        + "after the writes, which run unsynchronized with them")
  }
}
