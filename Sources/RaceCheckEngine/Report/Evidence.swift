/// What a failure showed: each way of failing with exactly the evidence it has.
///
/// A result no order explains has a history and the checker's explanation; a crash has a
/// stack and no history. The enum makes the other combinations impossible to write.
package enum Evidence: Sendable, Codable {
  /// The results have no linearization under the model.
  case nonLinearizable(History, Explanation)
  /// Schedule mode: two conflicting accesses to shared state that no primitive ordered.
  case dataRace(History)
  /// A `--sanitize=thread` build: Thread Sanitizer saw two accesses that no happens-before order separates.
  case sanitizerRace(SanitizerRace, SanitizerRace.Aftermath)
  /// Schedule mode: no controlled thread could go on.
  case deadlock(History)
  /// Schedule mode: a schedule ran past its step bound, as a spin loop or a livelock does.
  case stepBound(History)
  /// The code under test crashed, hung, or ended its isolated child without a word.
  case death(CrashEvidence)
  /// An explored body: expectations failed, or the body threw, in the schedule that ran.
  case failedExpectation(History, [ExpectationFailure])

  /// How the subject failed, as reports and repro files name it.
  package var kind: FailureReport.Kind {
    switch self {
    case .nonLinearizable: .nonLinearizable
    case .dataRace, .sanitizerRace: .dataRace
    case .deadlock: .deadlock
    case .stepBound: .stepBound
    case .failedExpectation: .failedExpectation
    case .death(let crash):
      switch crash.kind {
      case .crash: .crash
      case .hang: .hang
      case .exit: .exit
      }
    }
  }

  /// The failing history, for every failure but a death.
  package var history: History? {
    switch self {
    case .nonLinearizable(let history, _), .dataRace(let history), .deadlock(let history),
      .stepBound(let history), .failedExpectation(let history, _):
      history
    case .sanitizerRace(_, .finished(let history)): history
    case .death, .sanitizerRace(_, .died): nil
    }
  }

  /// The checker's account of why no order works, for a result no order explains.
  package var explanation: Explanation? {
    if case .nonLinearizable(_, let explanation) = self { return explanation }
    return nil
  }

  /// Thread Sanitizer's report of the race, for a race it saw.
  package var sanitizerRace: SanitizerRace? {
    if case .sanitizerRace(let race, _) = self { return race }
    return nil
  }

  /// The expectations that failed, for an explored body whose schedule failed them.
  package var failedExpectations: [ExpectationFailure]? {
    if case .failedExpectation(_, let failures) = self { return failures }
    return nil
  }

  /// What was seen of a crash, a hang or an early exit.
  package var crash: CrashEvidence? {
    if case .death(let crash) = self { return crash }
    return nil
  }
}
