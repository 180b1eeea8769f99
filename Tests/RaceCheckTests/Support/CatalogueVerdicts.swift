import RaceCheck
import Testing

/// What stress checks of a catalogue row must get right on any machine, however busy.
///
/// Stress mode finds racy bugs by running threads at the same time, which a loaded machine
/// makes rarer: a check may then stop `inconclusive` when its threads rarely overlapped.
/// So the tests assert what holds under load, and the demo's figures (idle and loaded)
/// measure how often each row reaches its verdict:
/// - a row that must pass never fails (a failure there is a false positive);
/// - a row that must fail never passes: each seed finds it or says its search was cut short;
/// - a failure is never given a name other than the row's (its expected one or another of
///   its bugs), though `unclassified` is honest;
/// - a row that must fail is found and named in at least one of its seeds.
/// Schedule mode's catalogue tests assert every verdict exactly.
enum CatalogueVerdicts {
  /// The rows whose class also races on storage it hands out (escaped live storage), so `data-race` is a true, if less specific, name.
  ///
  /// Row 2's enumerator and row 18's `array` are read outside the queue while a writer
  /// changes them; which face a run shows depends on timing, and the catalogue asks for
  /// the one the minimized failure shows.
  static let racingRows: Set<Int> = [2, 18]

  static func expectHonest(
    row: Int, name: String, expectation: RaceCheck.Expectation,
    reports: [(seed: UInt64, report: CheckReport)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (seed, report) in reports {
      let context =
        "row \(row) (\(name)), seed \(seed): expected \(expectation), got \(report.verdict)"
      #expect(report.specError == nil, "\(context)\n\(report)", sourceLocation: sourceLocation)
      switch expectation.verdict {
      case .pass, .inconclusive:
        #expect(report.verdict != .fail, "\(context)\n\(report)", sourceLocation: sourceLocation)
      case .fail:
        #expect(
          report.verdict != .pass, "\(context): a silent miss\n\(report)",
          sourceLocation: sourceLocation)
        if let pattern = report.failure?.diagnosis.pattern {
          #expect(
            pattern == expectation.diagnosis || expectation.otherBugs.contains(pattern)
              || pattern == .unclassified || (pattern == .dataRace && racingRows.contains(row)),
            "\(context) named \(pattern.rawValue)\n\(report)", sourceLocation: sourceLocation)
        }
      }
    }
    if expectation.verdict == .fail {
      #expect(
        reports.contains { expectation.isMet(by: $0.report) },
        "row \(row) (\(name)): no seed found and named \(expectation)",
        sourceLocation: sourceLocation)
    }
  }
}
