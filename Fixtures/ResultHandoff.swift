import Foundation

/// Hands a result from a worker to a waiting caller through a condition, with no record of whether it was delivered.
///
/// A delivery that comes before the caller waits signals no one, and the caller then waits forever.
final class ResultHandoff: @unchecked Sendable {
  private let condition = NSCondition()
  private var result: Int?

  /// Stores the result and wakes the caller.
  func deliver(_ value: Int) {
    condition.lock()
    result = value
    condition.signal()
    condition.unlock()
  }

  /// Waits for the result: once, whatever was delivered before.
  func awaitResult() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    condition.wait()
    return result
  }
}

/// ``ResultHandoff`` fixed: the caller waits only while no result is there, and checks again after every wake.
final class CheckedResultHandoff: @unchecked Sendable {
  private let condition = NSCondition()
  private var result: Int?

  /// Stores the result and wakes the caller.
  func deliver(_ value: Int) {
    condition.lock()
    result = value
    condition.signal()
    condition.unlock()
  }

  /// Waits until a result is there.
  func awaitResult() -> Int? {
    condition.lock()
    defer { condition.unlock() }
    while result == nil { condition.wait() }
    return result
  }
}
