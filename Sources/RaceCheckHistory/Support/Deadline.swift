/// When work must stop, on the monotonic clock, or never: the one type racecheck's time limits, timeouts and searches stop at.
///
/// ```swift
/// let deadline = Deadline.after(.seconds(10))
/// while !deadline.hasPassed { runScenario() }
/// ```
///
/// Like swift-nio's `NIODeadline`: ``distantFuture`` stands for no limit, so a deadline is
/// never optional and two combine with `min`. Checking one that never passes reads no clock.
package struct Deadline: Hashable, Comparable, Sendable {
  /// The instant it passes at, or nil for a deadline that never does.
  package let instant: MonotonicInstant?

  /// A deadline that never passes.
  package static let distantFuture = Deadline(instant: nil)

  private init(instant: MonotonicInstant?) {
    self.instant = instant
  }

  /// A deadline that passes at `instant`.
  package init(_ instant: MonotonicInstant) {
    self.instant = instant
  }

  /// The deadline `duration` after `start`, by default now; ``distantFuture`` when `duration` is nil.
  package static func after(_ duration: Duration?, from start: MonotonicInstant = .now())
    -> Deadline
  {
    duration.map { Deadline(start + $0) } ?? .distantFuture
  }

  /// Whether the deadline has passed: the clock reads later than its instant.
  @inline(__always)
  package var hasPassed: Bool {
    guard let instant else { return false }
    return MonotonicInstant.now() > instant
  }

  /// The time until it passes, zero once it has; nil for ``distantFuture``.
  package var timeLeft: Duration? {
    instant.map { max(.zero, $0 - .now()) }
  }

  /// Whether it is ``distantFuture``.
  package var isDistantFuture: Bool { instant == nil }

  /// A deadline that never passes comes after every other.
  package static func < (lhs: Deadline, rhs: Deadline) -> Bool {
    switch (lhs.instant, rhs.instant) {
    case (let lhs?, let rhs?): lhs < rhs
    case (.some, nil): true
    case (nil, _): false
    }
  }
}
