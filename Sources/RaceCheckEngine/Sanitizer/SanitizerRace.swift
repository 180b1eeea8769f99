/// Thread Sanitizer's report of two accesses to one address that no happens-before order separates.
///
/// In a `--sanitize=thread` build racecheck takes each report while it checks, instead of
/// letting the sanitizer print it, and ties both accesses to the calls of the scenario and
/// to the queue blocks and locks that guarded them. A race is reported whether or not the
/// bad interleaving happened: the sanitizer sees that nothing ordered the two accesses.
package struct SanitizerRace: Sendable, Codable, Hashable {
  /// One of the two accesses.
  package struct Access: Sendable, Codable, Hashable {
    /// Whether it wrote (else it read).
    package var isWrite: Bool
    /// The bytes it touched.
    package var size: Int
    /// The runner thread whose call made it, itself or through a block the call submitted, when known.
    package var runnerThread: Int?
    /// That call, when known.
    package var call: Scenario.Call?
    /// Whether it ran on a thread racecheck did not start: a dispatch worker running a block.
    package var onOtherThread: Bool
    /// What guarded it, as the report says it: `in a block on the concurrent queue 'q'`.
    package var guarding: String
    /// Its stack, symbolized: the user's frames first, the layers around them folded.
    package var stack: String
    /// The names of the functions on that stack, innermost first.
    package var functions: [String]

    /// Who made the access, as a report says it: `thread 1, in set("…")`.
    package var maker: String {
      let thread = runnerThread.map { "thread \($0)" } ?? "a thread racecheck did not start"
      let worker = onOtherThread && runnerThread != nil ? " (in a block it submitted)" : ""
      return thread + (call.map { ", in \($0)" } ?? "") + worker
    }
  }

  /// What happened after the report: the invocation finished, or the child running it died.
  package enum Aftermath: Sendable, Codable {
    /// The invocation ran to its end with this history.
    case finished(History)
    /// The child died before it could report, as the crash evidence says.
    case died(CrashEvidence)
  }

  /// The address both accesses touched.
  package var address: UInt
  /// The access whose happening made the sanitizer report.
  package var later: Access
  /// The earlier access it conflicts with.
  package var earlier: Access
}
