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
  private var storage: Value

  /// A name for reports.
  public let name: String?

  /// Creates a cell holding `value`.
  public init(_ value: Value, name: String? = nil) {
    storage = value
    self.name = name
  }

  /// The value: getting it is a read, setting it a write, and `cell.value.append(x)` both.
  public var value: Value {
    @inline(__always)
    get {
      guard let scheduler = SchedulerHook.active else { return storage }
      var value: Value?
      scheduler.access(self, kind: .cell, .read, label: name) {
        value = storage
        return Self.describe(storage)
      }
      return value!
    }
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
  }

  /// Reads and writes the value in one access, and returns what `body` returns.
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
  static func describe(_ value: Value) -> String {
    let text = String(describing: value)
    return text.count <= 40 ? text : String(text.prefix(37)) + "…"
  }
}
