/// The status racecheck's command line exits with, following BSD `sysexits.h` where one applies.
///
/// Scripts and CI can tell a found bug (1) from a mistyped command (64), an unusable
/// repro file (65) and a spec that cannot run (78):
///
/// ```swift
/// let status = CommandLineDriver(targets: targets).run(["run", "LockArray"])
/// if status == ExitStatus.failureFound.rawValue { /* a bug was found */ }
/// ```
public enum ExitStatus: Int32, Sendable, CaseIterable {
  /// The check passed, or for `demo`, every target met its expectation.
  case success = 0
  /// A failure was found, or for `demo`, some target did not meet its expectation.
  case failureFound = 1
  /// The command line is wrong: an unknown command, option or target, or a missing or malformed value (`EX_USAGE`).
  case usage = 64
  /// A repro file is missing, malformed, truncated or recorded for another target (`EX_DATAERR`).
  case dataError = 65
  /// racecheck itself failed, for example while encoding its output (`EX_SOFTWARE`).
  case internalError = 70
  /// `check` ran out of time before deciding (`EX_TEMPFAIL`: more time may decide it).
  case undecided = 75
  /// The spec is broken: it is invalid or one of its operations threw (`EX_CONFIG`).
  case specError = 78
}
