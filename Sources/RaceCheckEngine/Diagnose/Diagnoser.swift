/// Names the bug a minimized failure shows, from the evidence alone, or says `unclassified`.
///
/// The rules ask the spec's model what each operation is, through its typed step
/// (``Spec/step(of:_:)``): an array's `insert(v, i)`, a register's `write(v)`, a counter's
/// `increment`. None matches an operation's name against the model's, so a spec that names
/// its operations after the subject's methods is diagnosed as one that uses the model's
/// names; an operation with its own model closure has no step, and a rule that needs one
/// names nothing.
enum Diagnoser {
  /// The diagnosis of a failing history of `spec`.
  ///
  /// In schedule mode, `escapedReads` are the failing schedule's reads that went on after
  /// their call left a queue (see ``EscapedRead``); the results alone cannot show them.
  static func diagnose<Subject, Model>(
    _ history: History, spec: Spec<Subject, Model>, escapedReads: [EscapedRead] = []
  ) -> Diagnosis {
    if let spec = spec as? Spec<Subject, ArrayModel>,
      let diagnosis = InsertAtCountRejected.diagnose(history, spec: spec)
        ?? IdentityInsteadOfEquality.diagnose(history, spec: spec)
    {
      return diagnosis
    }
    if let spec = spec as? Spec<Subject, CounterModel>,
      let diagnosis = NonAtomicCompoundUpdate.diagnose(history, counter: spec)
    {
      return diagnosis
    }
    if let diagnosis = NonAtomicCompoundUpdate.diagnose(history, spec: spec) {
      return diagnosis
    }
    if let spec = spec as? Spec<Subject, RegisterModel>,
      let diagnosis = TornValue.diagnose(history, spec: spec)
    {
      return diagnosis
    }
    // These hypotheses know the vocabulary's steps only; an operation with its own model is not one of them.
    if let model = spec.model as? any HistoryModel,
      spec.mapsToVocabulary(history.operations.map(\.name)),
      let diagnosis = writesDiagnosis(history, spec: spec, model: model, escapedReads: escapedReads)
    {
      return diagnosis
    }
    return Diagnosis(
      .unclassified,
      evidence:
        "the results fit none of the known bug patterns; the minimized scenario and history below are the evidence"
    )
  }

  /// The diagnosis of a failure of a spec over the built-in model `BuiltIn`, from how its writes and reads were ordered.
  ///
  /// A read torn by writes inside the queue and writes that take effect late can explain the
  /// same results: the reads the schedule saw outside the queue decide, so they come first.
  private static func writesDiagnosis<Subject, Model, BuiltIn: HistoryModel>(
    _ history: History, spec: Spec<Subject, Model>, model _: BuiltIn,
    escapedReads: [EscapedRead]
  ) -> Diagnosis? {
    guard let spec = spec as? Spec<Subject, BuiltIn> else { return nil }
    return EscapedLiveStorage.diagnose(history, escapedReads: escapedReads, spec: spec)
      ?? LostUpdate.diagnose(history, spec: spec)
      ?? UnorderedWrite.diagnose(history, spec: spec)
  }
}
