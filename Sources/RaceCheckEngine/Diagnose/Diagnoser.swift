/// Where a failure's name is chosen: the order the evidence is weighed in, and the rules of results alone.
///
/// A failure is named by the first of these steps that names it; steps 6 and 7 may then
/// replace or refine that name, as each says.
///
/// 1. **The scheduler's account** (schedule mode): a deadlock, a schedule cut off at its step
///    bound, a race no primitive ordered, a failed expectation of an explored body. The runner
///    hands it to ``diagnose(_:)``, which names it with ``Deadlock``'s and ``DataRace``'s rules
///    (`Deadlock+Diagnosis.swift`, `DataRace+Diagnosis.swift`); the name travels in
///    `ObservedFailure.diagnosis`, and the session keeps it.
/// 2. **Thread Sanitizer's report** of a race, in any mode: ``DataRace``'s rules too, through
///    ``diagnose(_:)``, so that a race gets the same name whoever saw it.
/// 3. **A crash or a hang**: ``CrashDiagnoser``, with ``IndexGuardProbe``'s experiment; its name
///    is final.
/// 4. **An actor's reentrancy**, for `async` calls: ``ActorReentrancy``, proven by an experiment
///    on the scenario (`Session/CheckSession+Reentrancy.swift`) before any rule of results.
/// 5. **The results alone**: ``resultRules``, in order; the first that names the failure wins.
/// 6. **Whether the failure needs threads at all**: a name of the `data-race` family, or none,
///    stands only when the same calls made one after another pass (``SequentialFailure``);
///    then a failure nothing named is `data-race` (``ConcurrentOnlyFailure``).
/// 7. **A barrier GCD ignored** (a finding of the scheduler) turns a family name into
///    `barrier-on-global-queue` (``refine(_:findings:)``).
///
/// Steps 3 to 7 run experiments on the scenario, so they are in
/// `CheckSession.diagnose(_:of:index:experimentBudget:)` (`Session/CheckSession+Diagnosis.swift`),
/// which calls ``diagnose(_:spec:escapedReads:)`` for step 5.
///
/// The rules of results ask the spec's model what each operation is, through its typed step
/// (``Spec/step(of:_:)``): an array's `insert(v, i)`, a register's `write(v)`, a counter's
/// `increment`. None matches an operation's name against the model's, so a spec that names
/// its operations after the subject's methods is diagnosed as one that uses the model's
/// names; an operation with its own model closure has no step, and a rule that needs one
/// names nothing.
enum Diagnoser {
  /// The rules that name a failure from its results, in the order they are tried: a more specific name before a more general one.
  static let resultRules: [any ResultRule] = [
    InsertAtCountRule(),
    IdentityRule(),
    CompoundUpdateRule(),
    TornValueRule(),
    // Reads torn by writes inside a queue and writes that take effect late can explain the
    // same results: the reads the schedule saw outside the queue decide, so they come first.
    EscapedLiveStorageRule(),
    LostUpdateRule(),
    UnorderedWriteRule(),
  ]

  /// The diagnosis of a failing history of `spec`, from its results: the first of ``resultRules`` that names it, or `unclassified`.
  ///
  /// In schedule mode, `escapedReads` are the failing schedule's reads that went on after
  /// their call left a queue (see ``EscapedRead``); the results alone cannot show them.
  static func diagnose<Subject, Model>(
    _ history: History, spec: Spec<Subject, Model>, escapedReads: [EscapedRead] = []
  ) -> Diagnosis {
    let failure = FailingHistory(history: history, spec: spec, escapedReads: escapedReads)
    for rule in resultRules {
      if let diagnosis = rule.diagnose(failure) { return diagnosis }
    }
    return Diagnosis(
      .unclassified,
      evidence:
        "the results fit none of the known bug patterns; the minimized scenario and history below are the evidence"
    )
  }

  /// `diagnosis`, or the name a barrier the scheduler saw GCD ignore gives it when the results show only the family of a race or a lost update (step 7 above).
  static func refine(_ diagnosis: Diagnosis, findings: [Diagnosis]) -> Diagnosis {
    guard diagnosis.pattern.namesOnlyAFamily,
      let barrier = findings.first(where: { $0.pattern == .barrierOnGlobalQueue })
    else { return diagnosis }
    return Diagnosis(
      .barrierOnGlobalQueue, evidence: diagnosis.evidence + "; and " + barrier.evidence)
  }

  /// What a failing schedule shows beyond its results, as the scheduler or Thread Sanitizer saw it.
  enum ScheduleEvidence {
    /// No thread could go on.
    case deadlock(Deadlock)
    /// The schedule ran past `maxSteps` scheduling points without finishing.
    case stepBound(maxSteps: Int)
    /// Two conflicting accesses no primitive ordered.
    case race(DataRace)
    /// An explored body's expectations failed, or it threw: at least one.
    case failedExpectations([ExpectationFailure])
  }

  /// The diagnosis of a failing schedule's own evidence (steps 1 and 2 above).
  static func diagnose(_ evidence: ScheduleEvidence) -> Diagnosis {
    switch evidence {
    case .deadlock(let deadlock):
      return deadlock.diagnosis
    case .stepBound(let maxSteps):
      return Diagnosis(
        .unclassified,
        evidence: "the schedule ran past \(maxSteps) scheduling points without finishing: "
          + "a spin loop or a livelock")
    case .race(let race):
      return race.diagnosis
    case .failedExpectations(let failures):
      return Diagnosis(
        .unclassified,
        evidence: failures.count == 1
          ? "an expectation failed in this schedule: \(failures[0])"
          : "\(failures.count) expectations failed in this schedule, first: \(failures[0])")
    }
  }
}

/// A failing history of a spec, with what schedule mode saw of its reads, for the rules of results.
struct FailingHistory<Subject, Model: Hashable & Sendable> {
  var history: History
  var spec: Spec<Subject, Model>
  /// The failing schedule's reads that went on after their call left a queue; empty outside schedule mode.
  var escapedReads: [EscapedRead]

  /// The spec, when its model is `Other`.
  func specOver<Other: Hashable & Sendable>(_: Other.Type) -> Spec<Subject, Other>? {
    spec as? Spec<Subject, Other>
  }
}

/// One rule of ``Diagnoser/resultRules``: it names the pattern it knows when a failing history's results prove it, and nothing otherwise.
protocol ResultRule: Sendable {
  /// The diagnosis, when the rule's pattern explains `failure`; nil otherwise.
  func diagnose<Subject, Model>(_ failure: FailingHistory<Subject, Model>) -> Diagnosis?
}

/// A rule of results that reads the steps of a built-in model's vocabulary, so it names nothing when an operation has its own model closure.
protocol VocabularyRule: ResultRule {
  /// The diagnosis of a failing history of a spec over the built-in model `BuiltIn`; nil when the pattern does not explain it.
  func diagnose<Subject, BuiltIn: HistoryModel>(
    vocabulary failure: FailingHistory<Subject, BuiltIn>
  ) -> Diagnosis?
}

extension VocabularyRule {
  func diagnose<Subject, Model>(_ failure: FailingHistory<Subject, Model>) -> Diagnosis? {
    guard let model = failure.spec.model as? any HistoryModel,
      failure.spec.mapsToVocabulary(failure.history.operations.map(\.name))
    else { return nil }
    return diagnose(failure, model: model)
  }

  private func diagnose<Subject, Model, BuiltIn: HistoryModel>(
    _ failure: FailingHistory<Subject, Model>, model _: BuiltIn
  ) -> Diagnosis? {
    guard let spec = failure.specOver(BuiltIn.self) else { return nil }
    return diagnose(
      vocabulary: FailingHistory(
        history: failure.history, spec: spec, escapedReads: failure.escapedReads))
  }
}

extension Diagnoser {
  /// `insert-at-count-rejected`, for a spec over ``ArrayModel`` (``InsertAtCountRejected``).
  struct InsertAtCountRule: ResultRule {
    func diagnose<Subject, Model>(_ failure: FailingHistory<Subject, Model>) -> Diagnosis? {
      failure.specOver(ArrayModel.self).flatMap {
        InsertAtCountRejected.diagnose(failure.history, spec: $0)
      }
    }
  }

  /// `identity-instead-of-equality`, for a spec over ``ArrayModel`` (``IdentityInsteadOfEquality``).
  struct IdentityRule: ResultRule {
    func diagnose<Subject, Model>(_ failure: FailingHistory<Subject, Model>) -> Diagnosis? {
      failure.specOver(ArrayModel.self).flatMap {
        IdentityInsteadOfEquality.diagnose(failure.history, spec: $0)
      }
    }
  }

  /// `non-atomic-compound-update`: a counter's increments first, then any spec's (``NonAtomicCompoundUpdate``).
  struct CompoundUpdateRule: ResultRule {
    func diagnose<Subject, Model>(_ failure: FailingHistory<Subject, Model>) -> Diagnosis? {
      failure.specOver(CounterModel.self).flatMap {
        NonAtomicCompoundUpdate.diagnose(failure.history, counter: $0)
      } ?? NonAtomicCompoundUpdate.diagnose(failure.history, spec: failure.spec)
    }
  }

  /// `data-race`: a register read a value no write stored, a torn read (``TornValue``).
  struct TornValueRule: ResultRule {
    func diagnose<Subject, Model>(_ failure: FailingHistory<Subject, Model>) -> Diagnosis? {
      failure.specOver(RegisterModel.self).flatMap {
        TornValue.diagnose(failure.history, spec: $0)
      }
    }
  }

  /// `escaped-live-storage`, from the reads schedule mode saw outside the queue (``EscapedLiveStorage``).
  struct EscapedLiveStorageRule: VocabularyRule {
    func diagnose<Subject, BuiltIn: HistoryModel>(
      vocabulary failure: FailingHistory<Subject, BuiltIn>
    ) -> Diagnosis? {
      EscapedLiveStorage.diagnose(
        failure.history, escapedReads: failure.escapedReads, spec: failure.spec)
    }
  }

  /// `lost-update`: dropping a write that overlapped another explains the results (``LostUpdate``).
  struct LostUpdateRule: VocabularyRule {
    func diagnose<Subject, BuiltIn: HistoryModel>(
      vocabulary failure: FailingHistory<Subject, BuiltIn>
    ) -> Diagnosis? {
      LostUpdate.diagnose(failure.history, spec: failure.spec)
    }
  }

  /// `data-race`: writes that take effect late explain the results (``UnorderedWrite``).
  struct UnorderedWriteRule: VocabularyRule {
    func diagnose<Subject, BuiltIn: HistoryModel>(
      vocabulary failure: FailingHistory<Subject, BuiltIn>
    ) -> Diagnosis? {
      UnorderedWrite.diagnose(failure.history, spec: failure.spec)
    }
  }
}
