/// The catalogue's contract for a target checked with several seeds, which `racecheck demo` and the tests both judge by.
///
/// A check can be cut short, and a busy machine makes a race rarer, so one seed is not the
/// whole evidence. What must hold on every seed is that the check is never wrong: a target
/// that must pass never fails, one that must fail never passes, a broken spec is never
/// excused, and a failure is never named other than the target's own bugs (`unclassified`
/// is honest, and so is the family name of a race the target has). What must hold over the
/// seeds is that the target reached its verdict on one of them: a bug found and named, a
/// correct target passed. A seed that claims nothing is printed and counted, not hidden.
extension Expectation {
  /// How one seed's check stands against an expectation.
  package enum SeedJudgement: Hashable, Sendable {
    /// The check reached the expected verdict and named one of the expected bugs.
    case agrees
    /// The check claimed nothing this expectation contradicts, and not what it asks for either.
    ///
    /// A search cut short, or a failure of a target that must fail named only `unclassified`
    /// or by its family.
    case unsettled(reason: String)
    /// The check contradicts the expectation: a false positive, a silent miss, a wrong name or a broken spec.
    case wrong(reason: String)

    /// The judgement's one-word name, as `--json` writes it.
    package var name: String {
      switch self {
      case .agrees: "agrees"
      case .unsettled: "unsettled"
      case .wrong: "wrong"
      }
    }

    /// Why the check was unsettled or wrong; nil when it agrees.
    package var reason: String? {
      switch self {
      case .agrees: nil
      case .unsettled(let reason), .wrong(let reason): reason
      }
    }

    /// The judgement ``name`` and ``reason`` describe, as read back from `--json`; nil for an unknown name.
    package init?(name: String, reason: String?) {
      switch name {
      case "agrees": self = .agrees
      case "unsettled": self = .unsettled(reason: reason ?? "")
      case "wrong": self = .wrong(reason: reason ?? "")
      default: return nil
      }
    }
  }

  /// How a target's checks, one a seed, stand against an expectation.
  package enum TargetJudgement: String, Hashable, Sendable, Codable {
    /// No seed was wrong, and one reached the expected verdict.
    case agrees
    /// No seed was wrong, and none settled a target that must pass: nothing is claimed.
    case unsettled
    /// A target that must fail was found and named on no seed: the bug went unfound.
    case notFound = "not-found"
    /// A seed was wrong.
    case wrong

    /// The judgement of a target whose seeds were judged so.
    ///
    /// A target that must fail and was never found has missed its bug, however honest each seed
    /// was; a target that must pass and was never settled claims nothing.
    package init(seeds: some Sequence<SeedJudgement>, expected verdict: Verdict) {
      var agreed = false
      for seed in seeds {
        switch seed {
        case .wrong:
          self = .wrong
          return
        case .agrees: agreed = true
        case .unsettled: break
        }
      }
      self = agreed ? .agrees : verdict == .fail ? .notFound : .unsettled
    }

    /// Whether the judgement fails a demo or a test: a seed that was wrong, or a bug never found.
    package var isFailure: Bool { self == .wrong || self == .notFound }
  }

  /// The judgement of one seed's check, from its verdict, the pattern it named and the spec error it met.
  package func judge(
    verdict found: Verdict, pattern: BugPattern?, inconclusiveReason: String?,
    specError: String?
  ) -> SeedJudgement {
    if let specError { return .wrong(reason: "found a broken spec: \(specError)") }
    if found == .inconclusive {
      return verdict == .inconclusive
        ? .agrees : .unsettled(reason: "inconclusive: \(inconclusiveReason ?? "no verdict")")
    }
    let named = pattern.map { ": \($0.rawValue)" } ?? ""
    switch verdict {
    case .pass, .inconclusive:
      return found == verdict ? .agrees : .wrong(reason: "found \(found.rawValue)\(named)")
    case .fail:
      guard found == .fail else { return .wrong(reason: "found pass: a silent miss") }
      let pattern = pattern ?? .unclassified
      // An expectation that names no bug (a workload's) is met by any failure.
      if diagnosis == nil || names(pattern) { return .agrees }
      if pattern == .unclassified { return .unsettled(reason: "found fail, named unclassified") }
      if names(familyMember: pattern) {
        return .unsettled(reason: "found fail, named only by its family, \(pattern.rawValue)")
      }
      return .wrong(reason: "found fail\(named), which is none of the target's bugs")
    }
  }

  /// The judgement of one seed's check.
  package func judge(_ report: CheckReport) -> SeedJudgement {
    judge(
      verdict: report.verdict, pattern: report.failure?.diagnosis.pattern,
      inconclusiveReason: report.inconclusiveReason?.description,
      specError: report.specError?.message)
  }

  /// Whether `pattern` is the expected diagnosis or one of the other bugs.
  private func names(_ pattern: BugPattern) -> Bool {
    pattern == diagnosis || otherBugs.contains(pattern)
  }

  /// Whether `pattern` is the family name of one of the expected bugs: true of the target, if less specific.
  private func names(familyMember pattern: BugPattern) -> Bool {
    ([diagnosis].compactMap { $0 } + otherBugs).contains { $0.family == pattern }
  }
}
