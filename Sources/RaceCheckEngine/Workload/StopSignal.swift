import Foundation

/// Tells the threads of a workload run when to stop, and lets them sleep until a time or the stop, whichever comes first.
final class StopSignal: @unchecked Sendable {
  // NSCondition guards `isSet`; every access holds it, which is what makes the class Sendable.
  private let condition = NSCondition()
  private var isSetStorage = false

  /// Whether the stop has come.
  var isSet: Bool {
    condition.lock()
    defer { condition.unlock() }
    return isSetStorage
  }

  /// Says stop, waking every sleeper.
  func set() {
    condition.lock()
    isSetStorage = true
    condition.broadcast()
    condition.unlock()
  }

  /// Sleeps until `deadline` or the stop; true when the stop came.
  @discardableResult
  func wait(until deadline: MonotonicInstant) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while !isSetStorage {
      let left = deadline - .now()
      guard left > .zero else { return false }
      _ = condition.wait(until: Date(timeIntervalSinceNow: left.seconds))
    }
    return true
  }
}
