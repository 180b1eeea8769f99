import Synchronization

/// An atomic Boolean whose every access is a scheduling point under a checker.
///
/// Accesses are sequentially consistent, so that they order the threads' other accesses.
///
/// ```swift
/// let started = SyncAtomicBool(false)
/// if !started.exchange(true) { start() }
/// ```
public final class SyncAtomicBool: Sendable {
  private let atomic: Atomic<Bool>

  /// A name for reports.
  public let name: String?

  /// Creates an atomic holding `value`.
  public init(_ value: Bool, name: String? = nil) {
    atomic = Atomic(value)
    self.name = name
  }

  /// The current value.
  @inline(__always)
  public func load() -> Bool {
    guard let scheduler = SchedulerHook.active else {
      return atomic.load(ordering: .sequentiallyConsistent)
    }
    var value: Bool = false
    scheduler.access(self, kind: .atomic, .read, label: name) {
      value = atomic.load(ordering: .sequentiallyConsistent)
      return "\(value)"
    }
    return value
  }

  /// Replaces the value.
  @inline(__always)
  public func store(_ value: Bool) {
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
  public func exchange(_ value: Bool) -> Bool {
    guard let scheduler = SchedulerHook.active else {
      return atomic.exchange(value, ordering: .sequentiallyConsistent)
    }
    var old: Bool = false
    scheduler.access(self, kind: .atomic, .update, label: name) {
      old = atomic.exchange(value, ordering: .sequentiallyConsistent)
      return "\(old) → \(value)"
    }
    return old
  }

  /// Replaces the value with `desired` if it equals `expected`; returns whether it did and the value seen.
  @inline(__always)
  public func compareExchange(expected: Bool, desired: Bool) -> (exchanged: Bool, original: Bool) {
    guard let scheduler = SchedulerHook.active else {
      return atomic.compareExchange(
        expected: expected, desired: desired, ordering: .sequentiallyConsistent)
    }
    var outcome: (exchanged: Bool, original: Bool) = (false, false)
    scheduler.access(self, kind: .atomic, .update, label: name) {
      outcome = atomic.compareExchange(
        expected: expected, desired: desired, ordering: .sequentiallyConsistent)
      return outcome.exchanged ? "\(expected) → \(desired)" : "\(outcome.original), not \(expected)"
    }
    return outcome
  }
}
