import RaceCheckEngine

/// A demo's runs judged by the catalogue's contract, target by target: what `demo` and `merge` print and exit with.
///
/// Each run (a target checked with one seed) is judged alone, and a target by its runs
/// together (``Expectation/TargetJudgement``): a run that is wrong or a bug that no seed found
/// fails the demo; a run that claims nothing is printed and counted.
struct DemoTally {
  /// One target checked with one seed, as the tally needs it.
  struct Run {
    var target: String
    var seed: String
    var expected: Verdict
    /// The expectation as the table writes it, such as `fail: data-race`.
    var expectedText: String
    var judgement: Expectation.SeedJudgement
  }

  /// The runs, in the order they were checked.
  let runs: [Run]
  /// Each target's judgement, in the order of its first run.
  let targets: [(name: String, judgement: Expectation.TargetJudgement)]
  /// Whether the runs are one shard's part of a demo, whose other parts may hold a target's other seeds.
  ///
  /// A part can prove a run wrong, but not that a bug went unfound or a target unsettled: `merge`
  /// judges each target over all its runs.
  let isPart: Bool

  init(_ runs: [Run], isPart: Bool = false) {
    self.runs = runs
    self.isPart = isPart
    var order: [String] = []
    var byTarget: [String: [Run]] = [:]
    for run in runs {
      if byTarget[run.target] == nil { order.append(run.target) }
      byTarget[run.target, default: []].append(run)
    }
    targets = order.map { name in
      let runs = byTarget[name] ?? []
      return (
        name,
        Expectation.TargetJudgement(
          seeds: runs.map(\.judgement), expected: runs.first?.expected ?? .pass)
      )
    }
  }

  /// The number of targets that agree with the catalogue.
  var agreed: Int { targets.filter { $0.judgement == .agrees }.count }

  /// The status the demo exits with: 1 when a run was wrong or a bug went unfound, 3 when a target was left unsettled, else 0.
  var status: ExitStatus {
    if isPart { return targets.contains { $0.judgement == .wrong } ? .failureFound : .success }
    if targets.contains(where: { $0.judgement.isFailure }) { return .failureFound }
    return targets.contains { $0.judgement == .unsettled } ? .inconclusive : .success
  }

  /// The closing line: the targets that agree, and how the runs stood when there were several a target.
  func summary(elapsed: String) -> String {
    var line = "\(agreed) of \(targets.count) targets agree with the catalogue"
    if isPart { line += " in this part ('merge' judges each target over all its runs)" }
    if runs.count > targets.count {
      let agreeing = runs.filter { $0.judgement == .agrees }.count
      let unsettled = runs.filter { if case .unsettled = $0.judgement { true } else { false } }
      line += " (\(runs.count) runs: \(agreeing) agree, \(unsettled.count) unsettled"
      let wrong = runs.count - agreeing - unsettled.count
      line += wrong > 0 ? ", \(wrong) wrong)" : ")"
    }
    return line + " (\(elapsed))"
  }

  /// A line for each run that was wrong or unsettled and each bug no seed found; `replay` adds the lines that follow a wrong run.
  func problems(replay: (Int) -> [String] = { _ in [] }) -> [String] {
    var lines: [String] = []
    for (index, run) in runs.enumerated() {
      switch run.judgement {
      case .agrees: continue
      case .unsettled(let reason):
        lines.append("Unsettled: \(run.target) with seed \(run.seed): \(reason)")
      case .wrong(let reason):
        lines.append(
          "Disagrees: \(run.target) with seed \(run.seed): expected \(run.expectedText), \(reason)")
        lines += replay(index)
      }
    }
    for target in targets where target.judgement == .notFound && !isPart {
      let expected = runs.first { $0.target == target.name }?.expectedText ?? ""
      lines.append("Not found: \(target.name): no seed found and named \(expected)")
    }
    return lines
  }

  /// Run `index` as a JUnit case's outcome: it fails when the run was wrong or its target's bug went unfound, whatever the check found.
  ///
  /// An unsettled run passes where another seed settled its target, and is an error (no
  /// verdict) where none did.
  func junitOutcome(ofRun index: Int, details: String = "") -> JUnitReport.TestCase.Outcome {
    let run = runs[index]
    switch run.judgement {
    case .agrees:
      return .passed
    case .wrong(let reason):
      return .failed(
        message: "expected \(run.expectedText), \(reason)", type: "disagreement", details: details)
    case .unsettled(let reason):
      if isPart { return .passed }
      switch targets.first(where: { $0.name == run.target })?.judgement {
      case .notFound:
        return .failed(
          message: "expected \(run.expectedText), found on no seed; this one \(reason)",
          type: "not-found", details: details)
      case .unsettled: return .error(message: reason, type: "no-verdict", details: details)
      default: return .passed
      }
    }
  }
}
