import RaceCheck
import Testing

/// The catalogue's contract, as the tests assert it: the judgement `racecheck demo` makes (``Expectation/judge(_:)``).
///
/// Stress mode finds racy bugs by running threads at the same time, which a loaded machine
/// makes rarer: a check may then stop `inconclusive`. So no run may be wrong (a false positive,
/// a silent miss, a wrong name, a broken spec), and a target that must fail must be found and
/// named on one of the seeds checked; a run that claims nothing is allowed.
enum CatalogueVerdicts {
  static func expectHonest(
    row: Int, name: String, expectation: RaceCheck.Expectation,
    reports: [(seed: UInt64, report: CheckReport)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let judgements = reports.map { expectation.judge($0.report) }
    for ((seed, report), judgement) in zip(reports, judgements) {
      if case .wrong(let reason) = judgement {
        Issue.record(
          "row \(row) (\(name)), seed \(seed): expected \(expectation), \(reason)\n\(report)",
          sourceLocation: sourceLocation)
      }
    }
    let target = RaceCheck.Expectation.TargetJudgement(
      seeds: judgements, expected: expectation.verdict)
    #expect(
      target != .notFound, "row \(row) (\(name)): no seed found and named \(expectation)",
      sourceLocation: sourceLocation)
  }
}
