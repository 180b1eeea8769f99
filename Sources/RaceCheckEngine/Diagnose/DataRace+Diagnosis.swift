// A race's name: what guarded each of the two accesses says which pattern it is. Schedule mode's
// vector clocks and Thread Sanitizer's report both give a DataRace, so a race gets the same name
// whoever saw it.
extension DataRace {
  /// The specific name the two accesses' guards give the race, with the sentence that says why.
  ///
  /// Read through ``Diagnoser/diagnose(_:)``, where every diagnosis is chosen.
  var diagnosis: Diagnosis {
    let a = first.context
    let b = second.context
    let what =
      "\(b.thread)'s \(second.kind.rawValue) of \(cell) (\(b.description)) and \(a.thread)'s \(first.kind.rawValue) "
      + "(\(a.description)) are ordered by no primitive"
    if let block = (a.blocks + b.blocks).first(where: { $0.isGlobal && $0.flaggedBarrier }) {
      return Diagnosis(
        .barrierOnGlobalQueue,
        evidence:
          "\(what): the barrier on the global queue '\(block.name)' is an ordinary block, so it excludes nothing"
      )
    }
    if let shared = a.blocks.first(where: { block in b.blocks.contains { $0.queue == block.queue } }
    ),
      shared.isConcurrent, !shared.isGlobal
    {
      return Diagnosis(
        .concurrentQueueWithoutBarrier,
        evidence:
          "\(what): both run inside the concurrent queue '\(shared.name)' at once, and a write there needs a barrier"
      )
    }
    for (outside, inside) in [(a, b), (b, a)] where outside.isUnsynchronized {
      if let left = outside.queuesLeft,
        let block = inside.blocks.first(where: { left.contains($0.queue) })
      {
        return Diagnosis(
          .escapedLiveStorage,
          evidence:
            "\(what): \(outside.thread)'s call reached the state through the queue '\(block.name)' and used it after "
            + "leaving the queue, while a block on the queue changed it"
        )
      }
    }
    if a.isUnsynchronized || b.isUnsynchronized {
      if (a.isUnsynchronized && a.synchronizedEarlier == true)
        || (b.isUnsynchronized && b.synchronizedEarlier == true)
      {
        return Diagnosis(
          .atomicReferenceNonAtomicContents,
          evidence:
            "\(what): the reference was read under a lock, then the state behind it was used after the lock was released"
        )
      }
      // Thread Sanitizer cannot say what the earlier access's call did before it: only a call
      // known to have synchronized in no way at all shows state with no synchronization.
      if [a, b].allSatisfy({ !$0.isUnsynchronized || $0.neverSynchronized }) {
        return Diagnosis(
          .unsynchronizedAccess, evidence: "\(what): the state has no synchronization at all")
      }
      return Diagnosis(
        .dataRace,
        evidence:
          "\(what): what the unguarded access's call did before it is not known, so no more specific name is proven"
      )
    }
    return Diagnosis(.dataRace, evidence: "\(what): they are guarded by different primitives")
  }
}
