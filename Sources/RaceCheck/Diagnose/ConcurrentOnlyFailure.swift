/// Names the `data-race` family for a failure no specific pattern explains, when it needs threads running together.
///
/// The last rule, after every specific one: when the minimized scenario has no
/// linearization with its threads running together, and never fails with the same calls
/// made one thread after another, the operations are not atomic with respect to each
/// other, which is what an unsynchronized access to shared state looks like from outside.
///
/// Only for the collection models, whose every operation is one primitive step of the
/// wrapped storage. With a counter or a custom model an operation may be a compound
/// update made of locked steps, where no access races and the name would mislead.
enum ConcurrentOnlyFailure {
  /// Whether the rule may name failures of a spec with this model.
  static func applies<Model>(to model: Model) -> Bool {
    model is ArrayModel || model is DictionaryModel
  }

  /// The diagnosis, given how many invocations of the scenario with its threads in turn all passed.
  static func diagnosis(passingInTurn invocations: Int) -> Diagnosis {
    Diagnosis(
      .dataRace,
      evidence:
        "the results have no linearization when the threads run together, and all \(invocations) "
        + "invocations with the same calls made one thread after another pass: the operations touch "
        + "shared state without synchronization")
  }

  /// The scenario with its parallel part made sequential: each thread's calls in turn, first to last.
  static func inTurn(_ scenario: Scenario) -> Scenario {
    Scenario(initial: scenario.initial + scenario.parallel.flatMap { $0 }, post: scenario.post)
  }
}
