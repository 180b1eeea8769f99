/// A crash in racecheck's own code while it checked a subject: a racecheck bug, never a verdict on the subject.
///
/// The isolated child tells it from the subject's crashes by proof, not by guess: the
/// crashing thread was running the scheduler's own code (the interposer had switched it out
/// of the subject's mode), and the innermost frame that is not the Swift runtime or the C
/// library is racecheck's.
package struct InternalFault: Sendable, Codable, Hashable {
  /// The signal the child died of (`SIGSEGV`).
  package var signal: String
  /// The runtime's message, for a trap that printed or inlined one.
  package var message: String?
  /// The innermost racecheck function on the crashing stack.
  package var function: String?
  /// The crashing thread's stack, symbolized.
  package var stack: String
  /// The scenario that ran when racecheck crashed, so that the crash can be reproduced.
  package var scenario: Int?

  /// One sentence for reports: what crashed, where.
  package var summary: String {
    "racecheck's own code crashed (\(signal)\(message.map { ": \($0)" } ?? "")"
      + "\(function.map { " in \($0)" } ?? ""))"
      + "\(scenario.map { " in scenario \($0 + 1)" } ?? "")"
  }
}
