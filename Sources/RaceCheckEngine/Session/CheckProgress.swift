/// How far a check has got, as a terminal's status line shows it while the check runs.
package struct CheckProgress: Sendable {
  /// What the check is doing.
  package enum Stage: Sendable, Equatable {
    /// Running scenarios in search of a failure.
    case searching
    /// Shrinking, measuring and naming the failure found.
    case explaining
    /// Running a repro's scenario again, round after round, with the invocations that failed so far.
    case replaying(round: Int, failures: Int)
  }

  /// The target checked.
  package var target: String
  package var stage: Stage
  /// What the search explored so far.
  package var search: SearchSummary
  /// The time left of the check's limit, or nil without one.
  package var timeLeft: Duration?

  /// One line: `LockArray: scenario 4 of 30, 2,000 invocations (1,800 overlapping), no failure yet, 12 s left`.
  package var description: String {
    var parts: [String]
    switch stage {
    case .searching:
      parts = [
        "scenario \(min(search.scenarios + 1, max(search.plannedScenarios, 1))) of \(search.plannedScenarios)",
        "\(Self.count(search.invocations)) invocations (\(Self.count(search.overlappingInvocations)) overlapping)",
        "no failure yet",
      ]
    case .explaining:
      parts = [
        "a failure found in scenario \(search.scenarios) of \(search.plannedScenarios)",
        "shrinking and naming it",
      ]
    case .replaying(let round, let failures):
      parts = [
        "replay round \(round)", "\(Self.count(search.invocations)) invocations",
        "\(Self.count(failures)) failed",
      ]
    }
    if let timeLeft { parts.append("\(Int(timeLeft.seconds.rounded(.up))) s left") }
    return "\(target): " + parts.joined(separator: ", ")
  }

  /// `12,345`.
  private static func count(_ value: Int) -> String {
    let digits = Array(String(value))
    var grouped = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return grouped
  }
}

/// Where a check reports its progress; called on the thread that runs the check.
package typealias ProgressSink = @Sendable (CheckProgress) -> Void
