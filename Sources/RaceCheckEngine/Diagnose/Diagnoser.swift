/// Names the bug a minimized failure shows, from the evidence alone, or says `unclassified`.
enum Diagnoser {
  /// The diagnosis of a failing history of `spec`.
  ///
  /// In schedule mode, `escapedReads` are the failing schedule's reads that went on after
  /// their call left a queue (see ``EscapedRead``); the results alone cannot show them.
  static func diagnose<Subject, Model>(
    _ history: History, spec: Spec<Subject, Model>, escapedReads: [EscapedRead] = []
  ) -> Diagnosis {
    if let initial = spec.model as? ArrayModel {
      let freshReferences = Set(spec.operations.filter(\.passesFreshReferences).map(\.name))
      if let diagnosis = InsertAtCountRejected.diagnose(history, initial: initial)
        ?? IdentityInsteadOfEquality.diagnose(
          history, initial: initial, freshReferences: freshReferences)
      {
        return diagnosis
      }
    }
    if let initial = spec.model as? CounterModel,
      let diagnosis = NonAtomicCompoundUpdate.diagnose(history, initial: initial)
    {
      return diagnosis
    }
    if let diagnosis = NonAtomicCompoundUpdate.diagnose(history, spec: spec) {
      return diagnosis
    }
    if let initial = spec.model as? RegisterModel,
      let diagnosis = TornValue.diagnose(history, initial: initial)
    {
      return diagnosis
    }
    // These hypotheses know the vocabulary's steps only; an operation with its own model is not one of them.
    // A read torn by writes inside the queue and writes that take effect late can explain the
    // same results: the reads the schedule saw outside the queue decide, so they come first.
    if let initial = spec.model as? any HistoryModel,
      spec.mapsToVocabulary(history.operations.map(\.name)),
      let diagnosis = EscapedLiveStorage.diagnose(
        history, escapedReads: escapedReads, initial: initial)
        ?? LostUpdate.diagnose(history, initial: initial)
        ?? UnorderedWrite.diagnose(history, initial: initial)
    {
      return diagnosis
    }
    return Diagnosis(
      .unclassified,
      evidence:
        "the results fit none of the known bug patterns; the minimized scenario and history below are the evidence"
    )
  }
}
