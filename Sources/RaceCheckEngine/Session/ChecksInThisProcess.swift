import Foundation

/// Runs a process's checks one at a time, whatever threads start them.
///
/// A stress check finds races only when its threads have the cores to themselves, and
/// its pass says how many invocations overlapped; two checks at once would each find
/// less. Swift Testing runs tests in parallel, so a suite of checks serializes itself
/// here, and needs no `.serialized` trait.
enum ChecksInThisProcess {
  /// The lock every check holds while it runs; it guards no state, only the cores.
  private static let running = NSLock()

  /// Runs `check` once no other check of this process runs.
  static func oneAtATime<Result>(_ check: () -> Result) -> Result {
    running.withLock(check)
  }
}
