/// Names the `data-race` family for a failure no specific pattern explains, when it needs threads running together.
///
/// The last rule, after every specific one: when the minimized scenario has no
/// linearization with its threads running together, and never fails with the same calls
/// made one after another, in any order the threads allow (see ``SequentialFailure``), the operations are not atomic with respect to each
/// other, which is what an unsynchronized access to shared state looks like from outside.
///
/// Only for the collection models, whose every vocabulary operation is one primitive step
/// of the wrapped storage, and only when every call of the scenario is such an operation,
/// one call into the subject. With a counter, a custom model, or an operation with its own
/// model closure, an operation may be a compound update made of locked steps, where no
/// access races and the name would mislead.
enum ConcurrentOnlyFailure {
  /// Whether the rule may name a failure of `scenario`, a scenario of `spec`.
  static func applies<Subject, Model>(to spec: Spec<Subject, Model>, scenario: Scenario) -> Bool {
    (spec.model is ArrayModel || spec.model is DictionaryModel)
      && spec.mapsToVocabulary(scenario.allCalls.map(\.operation))
  }

  /// The diagnosis, given how many invocations of the calls made one after another, in how many orders, all passed.
  static func diagnosis(passing invocations: Int, orders: Int) -> Diagnosis {
    let inOrders = orders == 1 ? "" : " (in each of the \(orders) orders the threads allow)"
    return Diagnosis(
      .dataRace,
      evidence:
        "the results have no linearization when the threads run together, and all \(invocations) "
        + "invocations with the same calls made one after another\(inOrders) pass: the "
        + "operations touch shared state without synchronization")
  }

  /// The scenario with its parallel part made sequential: each thread's calls in turn, first to last.
  static func inTurn(_ scenario: Scenario) -> Scenario {
    Scenario(initial: scenario.initial + scenario.parallel.flatMap { $0 }, post: scenario.post)
  }
}
