import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A reading of the system's monotonic clock: as cheap as `clock_gettime`, never set back, and the same in every process.
///
/// ```swift
/// let started = MonotonicInstant.now()
/// work()
/// let elapsed: Duration = .now() - started
/// ```
///
/// It wraps the clock's nanoseconds, so the stress runner reads it around every call at
/// the cost of the system call alone. This file is the one place racecheck converts
/// between nanoseconds, seconds and `Duration`: everything else holds a `MonotonicInstant`,
/// a ``Deadline`` or a `Duration`, and a report, a file or a C call that needs a number
/// converts at its boundary through the helpers here.
package struct MonotonicInstant: Hashable, Comparable, Sendable {
  /// Nanoseconds since the clock's origin, an unspecified moment before the machine started.
  ///
  /// Only for what must store the instant as an integer: a history's call and return
  /// times, a deadline sent to an isolated child (the clock is system-wide, so the child
  /// reads the same one), the flight recorder.
  package let nanoseconds: Int64

  /// The instant `nanoseconds` after the clock's origin, as ``nanoseconds`` gave it.
  @inline(__always)
  package init(nanoseconds: Int64) {
    self.nanoseconds = nanoseconds
  }

  /// The current instant.
  @inline(__always)
  package static func now() -> MonotonicInstant {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return MonotonicInstant(
      nanoseconds: Int64(time.tv_sec) &* nanosecondsPerSecond &+ Int64(time.tv_nsec))
  }

  /// The instant `duration` after `instant`; an instant past the clock's range stays at its end.
  @inline(__always)
  package static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
    let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(duration.nanoseconds)
    return MonotonicInstant(nanoseconds: overflow ? (sum < 0 ? .max : .min) : sum)
  }

  /// The time from `start` to `end`, negative when `end` comes first.
  @inline(__always)
  package static func - (end: MonotonicInstant, start: MonotonicInstant) -> Duration {
    .nanoseconds(end.nanoseconds &- start.nanoseconds)
  }

  @inline(__always)
  package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }

  /// The time since this instant.
  package var elapsed: Duration { .now() - self }

  static let nanosecondsPerSecond: Int64 = 1_000_000_000
}

// MARK: - Conversions

/// The conversions between `Duration` and numbers, for the reports, files and C calls that take seconds, milliseconds or nanoseconds.
extension Duration {
  /// The duration in seconds, as reports, JSON and repro files write times.
  package var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// The duration in milliseconds, as benchmark tables show a check's time.
  package var milliseconds: Double { seconds * 1000 }

  /// The duration in nanoseconds with their fraction, as benchmarks give the cost of one call.
  package var fractionalNanoseconds: Double { seconds * 1e9 }

  /// The duration in whole nanoseconds, rounded toward zero and clamped to `Int64`'s range.
  package var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (product, overflow) = seconds.multipliedReportingOverflow(
      by: MonotonicInstant.nanosecondsPerSecond)
    guard !overflow else { return seconds < 0 ? .min : .max }
    let (sum, sumOverflow) = product.addingReportingOverflow(attoseconds / 1_000_000_000)
    return sumOverflow ? (seconds < 0 ? .min : .max) : sum
  }

  /// The duration in whole milliseconds, rounded up, as `poll(2)` takes a timeout; zero or more.
  package var wholeMillisecondsRoundedUp: Int32 {
    let nanoseconds = max(0, self.nanoseconds)
    return Int32(clamping: nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 == 0 ? 0 : 1))
  }

  /// `seconds` seconds, as reports and files write times; zero for a number that is not finite or is negative.
  package init(secondsOrZero seconds: Double) {
    let nanoseconds = seconds * Double(MonotonicInstant.nanosecondsPerSecond)
    guard nanoseconds.isFinite, nanoseconds > 0 else {
      self = .zero
      return
    }
    self = .nanoseconds(nanoseconds < 0x1p63 ? Int64(nanoseconds.rounded()) : .max)
  }

  /// `seconds` seconds rounded up to a whole millisecond, as the command line takes a time, so that its repro command writes it back exactly.
  package init(secondsRoundedUpToMilliseconds seconds: Double) {
    self = .milliseconds(Int64((seconds * 1000).rounded(.up)))
  }

  /// The duration as Dispatch's waits take it, in whole nanoseconds.
  package var dispatchInterval: DispatchTimeInterval {
    .nanoseconds(Int(clamping: nanoseconds))
  }

  /// How many of `count` things happened per second over this duration; zero for a duration of zero.
  package func rate(of count: Int) -> Double {
    self > .zero ? Double(count) / seconds : 0
  }
}
