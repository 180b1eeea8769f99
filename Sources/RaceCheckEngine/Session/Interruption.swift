import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Watches for SIGINT and SIGTERM while a check runs, so that the check can stop cleanly and report what it found.
///
/// While it watches, the signals' default action (ending the process at once, with nothing
/// written) is replaced by a dispatch source that records which signal came; the session
/// asks ``signal`` between invocations and stops. ``stop()`` restores the default action.
///
/// ```swift
/// let interruption = Interruption.watch()
/// defer { interruption.stop() }
/// ```
package final class Interruption: Sendable {
  /// The signal that came, 0 until one does; set by the signal sources (and ``raiseForTesting(_:)``).
  let received = Atomic<Int32>(0)
  /// How many signals came: a command that goes on after the first (a workload checking what it recorded) stops at the next.
  let receivedCount = Atomic<Int>(0)
  /// The dispatch sources, kept alive while watching; only ``watch()`` and ``stop()`` touch them.
  private nonisolated(unsafe) var sources: [any DispatchSourceSignal] = []
  private let lock = Mutex(())
  private static let watched: [Int32] = [SIGINT, SIGTERM]

  private init() {}

  /// Starts watching SIGINT and SIGTERM.
  package static func watch() -> Interruption {
    let interruption = Interruption()
    let queue = DispatchQueue(label: "racecheck.interruption")
    let sources = watched.map { signalNumber in
      Glibc.signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
      source.setEventHandler { [interruption] in
        interruption.receivedCount.add(1, ordering: .relaxed)
        _ = interruption.received.compareExchange(
          expected: 0, desired: signalNumber, ordering: .relaxed)
      }
      source.resume()
      return source
    }
    interruption.lock.withLock { _ in interruption.sources = sources }
    return interruption
  }

  /// An interruption that never fires, for checks nothing can interrupt.
  static var never: Interruption { Interruption() }

  /// The signal that asked the check to stop, or nil while none has.
  package var signal: Int32? {
    let value = received.load(ordering: .relaxed)
    return value == 0 ? nil : value
  }

  /// How many of the watched signals came so far.
  package var count: Int { receivedCount.load(ordering: .relaxed) }

  /// Stops watching and gives the signals their default action back.
  package func stop() {
    let sources = lock.withLock { _ in
      defer { self.sources = [] }
      return self.sources
    }
    for source in sources { source.cancel() }
    if !sources.isEmpty {
      for signalNumber in Self.watched { Glibc.signal(signalNumber, SIG_DFL) }
    }
  }

  /// The exit status of a process ended by `signal`: 128 plus its number (130 for SIGINT, 143 for SIGTERM).
  static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}
