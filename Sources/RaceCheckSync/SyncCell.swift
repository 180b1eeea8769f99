/// Plain stored state whose reads and writes a checker sees, to find the accesses no primitive orders.
///
/// It adds no synchronization: wrap the state a lock or a queue is meant to guard,
/// and a checker reports any two conflicting accesses that nothing orders.
///
/// ```swift
/// private let storage = SyncCell<[Int]>([])
/// queue.async(flags: .barrier) { self.storage.value.append(1) }
/// ```
public final class SyncCell<Value>: @unchecked Sendable {
  // @unchecked Sendable: unguarded on purpose: the user's lock or queue guards it.
  // Inlinable accessors reach it directly, so that an unscheduled access is a plain stored access.
  @usableFromInline
  var storage: Value

  /// A name for reports.
  public let name: String?

  /// Creates a cell holding `value`.
  public init(_ value: Value, name: String? = nil) {
    storage = value
    self.name = name
  }

  /// The value: getting it is a read, setting it a write, and `cell.value.append(x)` both.
  ///
  /// With no scheduler active the accessors yield the storage itself, so that
  /// `cell.value.append(x)` mutates in place exactly as a stored property does: a getter
  /// and setter would hand out a second reference and make every append copy the buffer,
  /// which changes how unsynchronized code fails under stress.
  @inlinable
  public var value: Value {
    @inline(__always)
    _read {
      if let scheduler = SchedulerHook.active {
        scheduler.access(self, kind: .cell, .read, label: name) { Self.describe(storage) }
      }
      yield storage
    }
    // Assignment takes the setter, one write; only in-place mutation takes `_modify`.
    @inline(__always)
    set {
      guard let scheduler = SchedulerHook.active else {
        storage = newValue
        return
      }
      scheduler.access(self, kind: .cell, .write, label: name) {
        storage = newValue
        return Self.describe(storage)
      }
    }
    @inline(__always)
    _modify {
      guard let scheduler = SchedulerHook.active else {
        yield &storage
        return
      }
      // A read, the caller's change to a copy, then a write: two scheduling points, so that
      // schedule mode can run another thread between them as real threads can.
      var copy: Value?
      scheduler.access(self, kind: .cell, .read, label: name) {
        copy = storage
        return Self.describe(storage)
      }
      var value = copy.take()!
      yield &value
      scheduler.access(self, kind: .cell, .write, label: name) {
        storage = value
        return Self.describe(storage)
      }
    }
  }

  /// Reads and writes the value in one access, and returns what `body` returns.
  @inlinable
  @inline(__always)
  public func update<Result>(_ body: (inout Value) -> Result) -> Result {
    guard let scheduler = SchedulerHook.active else { return body(&storage) }
    var result: Result?
    scheduler.access(self, kind: .cell, .update, label: name) {
      result = body(&storage)
      return Self.describe(storage)
    }
    return result!
  }

  /// The value as traces show it, cut short when long.
  @usableFromInline
  static func describe(_ value: Value) -> String {
    let text = String(describing: value)
    return text.count <= 40 ? text : String(text.prefix(37)) + "…"
  }
}
