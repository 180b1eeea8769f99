/// The thread chosen at each scheduling point of one schedule, written run-length: `0*12,1*3,2,0*5`.
///
/// The text is a list of runs joined by commas; a run is a thread id, then `*` and how many
/// scheduling points in a row chose it when more than one did. `0*2,1` is thread 0, thread 0,
/// thread 1. Reports print it after `Schedule:` and in a test's replay line, where
/// `RACECHECK_SCHEDULE` gives it back:
///
/// ```swift
/// let schedule = try ScheduleChoices(parsing: "0*2,1")  // [0, 0, 1]
/// schedule.description                                   // "0*2,1"
/// ```
package struct ScheduleChoices: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The thread chosen at each scheduling point, in order, as ``ReplayStrategy`` replays them.
  package let choices: [Int]

  /// The most scheduling points a written schedule may hold: ten times ``ScheduleSettings``'s default step bound.
  ///
  /// A count beyond any schedule that can run is a typing slip, and would otherwise take
  /// all of memory to expand.
  package static let maximumCount = 100_000

  /// Wraps the choices of a schedule that ran.
  package init(_ choices: [Int]) {
    self.choices = choices
  }

  /// Reads the run-length text ``description`` writes; spaces around a run are allowed.
  package init(parsing text: String) throws(ParseError) {
    guard !text.allSatisfy(\.isWhitespace) else { throw .empty }
    var choices: [Int] = []
    for (index, run) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
      let parts = run.split(separator: "*", omittingEmptySubsequences: false)
      guard parts.count <= 2, let thread = Self.number(parts[0]),
        let count = parts.count == 2 ? Self.number(parts[1]) : 1, count > 0
      else {
        throw .badRun(String(run.trimmingWhitespace()), position: index + 1)
      }
      guard count <= Self.maximumCount - choices.count else { throw .tooLong }
      choices += repeatElement(thread, count: count)
    }
    self.choices = choices
  }

  /// The choices run-length: `0*12,1*3,2,0*5`; empty for a schedule of no scheduling point.
  package var description: String {
    var runs: [String] = []
    var index = choices.startIndex
    while index < choices.endIndex {
      let thread = choices[index]
      let end = choices[index...].firstIndex { $0 != thread } ?? choices.endIndex
      let count = end - index
      runs.append(count == 1 ? "\(thread)" : "\(thread)*\(count)")
      index = end
    }
    return runs.joined(separator: ",")
  }

  /// A non-negative decimal number with no sign, or nil.
  private static func number(_ text: Substring) -> Int? {
    let digits = text.trimmingWhitespace()
    guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
    return Int(digits)
  }

  /// Why a text is not a schedule.
  package enum ParseError: Error, Hashable, CustomStringConvertible {
    /// The text holds no run at all.
    case empty
    /// Run number `position` (from 1) is not a thread id with an optional `*count` of at least 1.
    case badRun(String, position: Int)
    /// The runs add up to more than ``ScheduleChoices/maximumCount`` scheduling points.
    case tooLong

    package var description: String {
      switch self {
      case .empty:
        "it is empty: write each thread chosen, run-length, such as 0*12,1*3,2"
      case .badRun(let run, let position):
        "run \(position), '\(run)', is not a thread id with an optional *count, such as 0 or 1*3"
      case .tooLong:
        "it holds more than \(ScheduleChoices.maximumCount) scheduling points"
      }
    }
  }
}
