import CRaceCheckInterposer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The log the interposer writes Thread Sanitizer's race reports to while a check runs, read after each invocation.
///
/// Only a `--sanitize=thread` build makes reports; elsewhere ``isActive`` is false and no
/// runner makes a log. Creating one arms the interposer: from then until it is released,
/// reports go to the log instead of being printed.
package final class SanitizerRaceLog {
  /// Whether this build has Thread Sanitizer.
  package static let isActive = rc_sanitizer_is_active()

  private let log: UnsafeMutablePointer<rc_race_log>
  /// The reports already handed out.
  private var taken: UInt64

  /// Starts taking reports into the log this process writes to (the flight recorder's, in an isolated child).
  init() {
    log = rc_sanitizer_log()
    taken = rc_race_log_count(log)
    rc_sanitizer_arm(true)
  }

  deinit {
    rc_sanitizer_arm(false)
  }

  /// Marks the start of an invocation: the reports made from now on belong to it.
  func invocationStarts() {
    _ = rc_race_log_advance_stamp(log)
  }

  /// How long the end of an invocation waits for the async blocks its calls submitted.
  static let pendingBlocksWait = Duration.seconds(1)
  /// How long a failing invocation's blocks get before its results are reported instead of a race in them.
  static let failingBlocksWait = Duration.seconds(5)
  /// Set once blocks outlived the wait: they may never finish, and waiting again would only slow every invocation.
  private var blocksOutliveInvocations = false

  /// Waits, up to ``pendingBlocksWait``, until every async block the calls submitted has run: a race in a block is reported only when it runs.
  func waitForPendingBlocks() {
    guard !blocksOutliveInvocations else { return }
    if !waitForPendingBlocks(upTo: Self.pendingBlocksWait) { blocksOutliveInvocations = true }
  }

  /// Waits up to `limit` for the pending async blocks; false when some still had not run.
  @discardableResult
  func waitForPendingBlocks(upTo limit: Duration) -> Bool {
    let deadline = Deadline.after(limit)
    while rc_sanitizer_pending_blocks() > 0 {
      if deadline.hasPassed { return false }
      sched_yield()
    }
    return true
  }

  /// Symbolizes the reports' stacks, to tell racecheck's own races from the subject's.
  private lazy var stacks = SanitizerStacks()

  /// The first report about the code under test made since the last call, if any; later ones are the same race seen again, or its echoes.
  ///
  /// Reports whose accesses are both racecheck's own are passed over: they are not the subject's.
  func takeReport() -> rc_race_record? {
    let count = rc_race_log_count(log)
    defer { taken = count }
    guard count > taken else { return nil }
    let first = max(taken, count - min(count, UInt64(RC_RACE_LOG_CAPACITY)))
    return Self.firstSubjectReport(in: log, from: first, to: count, stacks: stacks)
  }

  /// The first report about the code under test that `log` holds of the invocation that ran last: what a parent reads after its child died.
  static func lastInvocationReport(in log: UnsafeMutablePointer<rc_race_log>) -> rc_race_record? {
    let count = rc_race_log_count(log)
    let stamp = rc_race_log_stamp(log)
    return firstSubjectReport(
      in: log, from: count - min(count, UInt64(RC_RACE_LOG_CAPACITY)), to: count,
      stacks: SanitizerStacks()
    ) { $0.stamp == stamp }
  }

  /// The first record of `log` in `first..<end` that `belongs` accepts and that is not racecheck's own.
  private static func firstSubjectReport(
    in log: UnsafeMutablePointer<rc_race_log>, from first: UInt64, to end: UInt64,
    stacks: SanitizerStacks, where belongs: (rc_race_record) -> Bool = { _ in true }
  ) -> rc_race_record? {
    guard first < end else { return nil }
    for index in first..<end {
      guard let record = rc_race_log_record(log, index)?.pointee, belongs(record) else { continue }
      if !SanitizerRace.isRaceChecksOwn(record, stacks: stacks) { return record }
    }
    return nil
  }
}
