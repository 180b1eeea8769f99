/// Names `escaped-live-storage` from results and a schedule: a read that went on after its call left the queue, against a write inside the queue.
///
/// The scheduler sees the read (see ``EscapedRead``): after its `sync` left the queue, the
/// call read on outside every queue, and a block of a writing call entered the queue in
/// between. The results must agree: with the results of those reads set aside, some
/// order explains every other result, so the reads, and only they, saw the storage change
/// under them. A copy made inside the queue could not have.
enum EscapedLiveStorage {
  /// The diagnosis, when reads after leaving the queue, racing a write inside it, are all that no order explains.
  static func diagnose<Model: HistoryModel>(
    _ history: History, escapedReads: [EscapedRead], initial: Model
  ) -> Diagnosis? {
    let reads = escapedReads.filter { read in
      history.operations.contains(read.reader) && history.operations.contains(read.writer)
        && leavesStateUnchanged(read.reader, in: Model.self)
        && !leavesStateUnchanged(read.writer, in: Model.self)
    }
    let readers = Set(reads.map(\.reader))
    guard !readers.isEmpty else { return nil }
    let hypothesis = Hypothesis<Model> { state, entry in
      readers.contains(entry) ? nil : Model.correctStep(&state, entry)
    }
    guard let order = hypothesis.witness(for: history, from: initial) else { return nil }
    // In that order, the first read whose result the model does not give is the one that saw the write.
    let seen = hypothesis.replay(order, of: history, from: initial) {
      entry, state -> (RecordedHistory.Operation, Value)? in
      var after = state
      guard readers.contains(entry), let expected = Model.correctStep(&after, entry),
        expected != entry.result
      else { return nil }
      return (entry, expected)
    }
    guard let (reader, expected) = seen,
      let queue = reads.first(where: { $0.reader == reader })?.queue
    else { return nil }
    let writers = reads.filter { $0.reader == reader && $0.queue == queue }.map {
      "\($0.writer.callText) on thread \($0.writer.process)"
    }
    return Diagnosis(
      .escapedLiveStorage,
      evidence:
        "\(reader.callText) on thread \(reader.process) returned \(reader.result) where the model returns \(expected): "
        + "it read on after leaving the queue '\(queue)', while \(writers.joined(separator: " and ")) "
        + "wrote inside the queue, and every other result has a linearization: the operation returns the "
        + "live internal storage (or an enumerator over it), not a copy")
  }

  /// Whether `entry`'s operation changes nothing in the model, whatever it returns.
  private static func leavesStateUnchanged<Model: HistoryModel>(
    _ entry: RecordedHistory.Operation, in _: Model.Type
  ) -> Bool {
    guard let step = try? Model.step(entry.name, entry.arguments) else {
      return false
    }
    return Model.leavesStateUnchanged(step, result: nil)
  }
}
