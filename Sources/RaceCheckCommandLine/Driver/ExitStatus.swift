import RaceCheckEngine

/// The status racecheck's command line exits with, following BSD `sysexits.h` where one applies.
///
/// Scripts and CI can tell a found bug (1) from a search cut short (3), a mistyped
/// command (64), an unusable repro file (65), a report file that cannot be written (73),
/// a spec that cannot run (78) and an interrupt (130, 143):
///
/// ```swift
/// let status = CommandLineDriver(targets: targets).run(["run", "LockArray"])
/// if status == ExitStatus.failureFound.rawValue { /* a bug was found */ }
/// ```
package enum ExitStatus: Int32, Sendable, CaseIterable {
  /// The check passed, or for `demo`, every target met its expectation.
  case success = 0
  /// A failure was found, or for `demo`, some target did not meet its expectation.
  case failureFound = 1
  /// The command line is wrong: an unknown command, option or target, or a missing or malformed value (`EX_USAGE`).
  case usage = 64
  /// A repro file is missing, malformed, truncated or recorded for another target (`EX_DATAERR`).
  case dataError = 65
  /// What a workload runs against could not be started, such as a server that is not installed (`EX_UNAVAILABLE`).
  case unavailable = 69
  /// racecheck itself failed: its own code crashed in the worker child, it could not encode its output, or its child kept being killed from outside (`EX_SOFTWARE`).
  case internalError = 70
  /// A report file asked for (`--junit`, `--html`) could not be written, though the check itself passed (`EX_CANTCREAT`).
  case cannotWriteOutput = 73
  /// `check` ran out of time before deciding (`EX_TEMPFAIL`: more time may decide it).
  case undecided = 75
  /// The spec is broken: it is invalid or one of its operations threw (`EX_CONFIG`).
  case specError = 78
  /// The search was cut short (a time limit, the invocation cap, threads that rarely overlapped) or a replay did not reproduce: no verdict is claimed.
  case inconclusive = 3
  /// SIGINT stopped the command; what it had found was printed and written (128 + 2).
  case interrupted = 130
  /// SIGTERM stopped the command; what it had found was printed and written (128 + 15).
  case terminated = 143
}

extension ExitStatus {
  /// The status of a check's report: what it found, or what stopped it.
  static func of(_ report: CheckReport) -> ExitStatus {
    if let signal = report.stoppingSignal { return interrupted(by: signal) }
    switch report.outcome {
    case .passed: return .success
    case .failed: return .failureFound
    case .inconclusive: return .inconclusive
    case .specError: return .specError
    case .killedFromOutside, .internalFault: return .internalError
    }
  }

  /// The status once a report file was written or not: a file that could not be written turns a success into ``cannotWriteOutput``.
  ///
  /// Any other status says more than the missing file, whose error is printed anyway.
  func afterWritingReportFile(succeeded: Bool) -> ExitStatus {
    succeeded || self != .success ? self : .cannotWriteOutput
  }

  /// The status of a command stopped by `signal`.
  static func interrupted(by signal: Int32) -> ExitStatus {
    signal == 15 ? .terminated : .interrupted
  }
}
