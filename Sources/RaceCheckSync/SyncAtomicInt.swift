import Synchronization

/// An atomic integer whose every access is a scheduling point under a checker.
///
/// Accesses are sequentially consistent, so that they order the threads' other accesses.
///
/// ```swift
/// let hits = SyncAtomicInt(0)
/// hits.add(1)
/// let seen = hits.load()
/// ```
public final class SyncAtomicInt: Sendable {
  private let atomic: Atomic<Int>

  /// A name for reports.
  public let name: String?

  /// Creates an atomic holding `value`.
  public init(_ value: Int, name: String? = nil) {
    atomic = Atomic(value)
    self.name = name
  }

  /// The current value.
  @inline(__always)
  public func load() -> Int {
    guard let scheduler = SchedulerHook.active else {
      return atomic.load(ordering: .sequentiallyConsistent)
    }
    var value: Int = 0
    scheduler.access(self, kind: .atomic, .read, label: name) {
      value = atomic.load(ordering: .sequentiallyConsistent)
      return "\(value)"
    }
    return value
  }

  /// Replaces the value.
  @inline(__always)
  public func store(_ value: Int) {
    guard let scheduler = SchedulerHook.active else {
      atomic.store(value, ordering: .sequentiallyConsistent)
      return
    }
    scheduler.access(self, kind: .atomic, .write, label: name) {
      atomic.store(value, ordering: .sequentiallyConsistent)
      return "\(value)"
    }
  }

  /// Replaces the value and returns the one it held.
  @inline(__always)
  public func exchange(_ value: Int) -> Int {
    guard let scheduler = SchedulerHook.active else {
      return atomic.exchange(value, ordering: .sequentiallyConsistent)
    }
    var old: Int = 0
    scheduler.access(self, kind: .atomic, .update, label: name) {
      old = atomic.exchange(value, ordering: .sequentiallyConsistent)
      return "\(old) → \(value)"
    }
    return old
  }

  /// Replaces the value with `desired` if it equals `expected`; returns whether it did and the value seen.
  @inline(__always)
  public func compareExchange(expected: Int, desired: Int) -> (exchanged: Bool, original: Int) {
    guard let scheduler = SchedulerHook.active else {
      return atomic.compareExchange(
        expected: expected, desired: desired, ordering: .sequentiallyConsistent)
    }
    var outcome: (exchanged: Bool, original: Int) = (false, 0)
    scheduler.access(self, kind: .atomic, .update, label: name) {
      outcome = atomic.compareExchange(
        expected: expected, desired: desired, ordering: .sequentiallyConsistent)
      return outcome.exchanged ? "\(expected) → \(desired)" : "\(outcome.original), not \(expected)"
    }
    return outcome
  }

  /// Adds `operand`, wrapping, and returns the new value.
  @inline(__always)
  @discardableResult
  public func add(_ operand: Int) -> Int {
    guard let scheduler = SchedulerHook.active else {
      return atomic.wrappingAdd(operand, ordering: .sequentiallyConsistent).newValue
    }
    var new = 0
    scheduler.access(self, kind: .atomic, .update, label: name) {
      new = atomic.wrappingAdd(operand, ordering: .sequentiallyConsistent).newValue
      return "+\(operand) → \(new)"
    }
    return new
  }
}
