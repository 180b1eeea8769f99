/// Names `escaped-live-storage` from results and a schedule: a read that went on after its call left the queue, against a write inside the queue.
///
/// The scheduler sees the read (see ``EscapedRead``): after its `sync` left the queue, the
/// call read on outside every queue, and a block of a writing call entered the queue in
/// between. The results must agree: with the results of those reads set aside, some
/// order explains every other result, so the reads, and only they, saw the storage change
/// under them. A copy made inside the queue could not have.
enum EscapedLiveStorage {
  /// The diagnosis, when reads after leaving the queue, racing a write inside it, are all that no order explains.
  ///
  /// Whether a call reads or writes is what its step does to the model: a read leaves
  /// the state unchanged, a write changes it.
  static func diagnose<Subject, Model: HistoryModel>(
    _ history: History, escapedReads: [EscapedRead], spec: Spec<Subject, Model>
  ) -> Diagnosis? {
    let operations = history.operations
    let steps = spec.steps(of: history)
    /// Whether operation `index` changes the model's state; nil when its step is not known.
    func changesState(_ index: Int) -> Bool? {
      steps[index].map { !Model.leavesStateUnchanged($0, result: nil) }
    }
    // Each escaped read with its reader's and its writer's index in the history.
    let reads = escapedReads.compactMap { read -> (read: EscapedRead, reader: Int)? in
      guard let reader = operations.firstIndex(of: read.reader),
        let writer = operations.firstIndex(of: read.writer),
        changesState(reader) == false, changesState(writer) == true
      else { return nil }
      return (read, reader)
    }
    let readers = Set(reads.map(\.reader))
    guard !readers.isEmpty else { return nil }
    let correct = Hypothesis<Model>(modelSides: spec.modelSides(of: history))
    let hypothesis = Hypothesis<Model> { state, index in
      readers.contains(index) ? nil : correct.step(&state, index)
    }
    guard let order = hypothesis.witness(for: history, from: spec.model) else { return nil }
    // In that order, the first read whose result the model does not give is the one that saw the write.
    let seen = hypothesis.replay(order, from: spec.model) { index, state -> (Int, Value)? in
      var after = state
      guard readers.contains(index), let expected = correct.step(&after, index),
        expected != operations[index].result
      else { return nil }
      return (index, expected)
    }
    guard let (readerIndex, expected) = seen,
      let queue = reads.first(where: { $0.reader == readerIndex })?.read.queue
    else { return nil }
    let reader = operations[readerIndex]
    let writers = reads.filter { $0.reader == readerIndex && $0.read.queue == queue }.map {
      "\($0.read.writer.callText) on thread \($0.read.writer.process)"
    }
    return Diagnosis(
      .escapedLiveStorage,
      evidence:
        "\(reader.callText) on thread \(reader.process) returned \(reader.result) where the model returns \(expected): "
        + "it read on after leaving the queue '\(queue)', while \(writers.joined(separator: " and ")) "
        + "wrote inside the queue, and every other result has a linearization: the operation returns the "
        + "live internal storage (or an enumerator over it), not a copy")
  }
}
