/// The sequential model of a FIFO queue: `enqueue(v)`, `dequeue` → value or null when empty, `count`, `snapshot` → the elements, oldest first.
public struct QueueModel: HistoryModel {
  /// The elements, oldest first.
  public var elements: [Value]

  public static let name = "queue"
  public static let vocabulary = ["enqueue", "dequeue", "count", "snapshot"]

  /// One decoded queue operation.
  public enum Step: Hashable, Sendable {
    /// `enqueue(v)`: adds `v` behind the newest element.
    case enqueue(Value)
    /// `dequeue`: removes and returns the oldest element, or returns nil when the queue is empty.
    case dequeue
    /// `count`: returns the number of elements.
    case count
    /// `snapshot`: returns every element, oldest first.
    case snapshot
  }

  public init() {
    elements = []
  }

  public init(state: Value) throws(ModelError) {
    elements = try ModelError.list(state, model: Self.name)
  }

  public var state: Value { .list(elements) }

  public static func step(_ operation: String, _ arguments: [Value]) throws(ModelError) -> Step {
    switch operation {
    case "enqueue":
      try ModelError.expect(operation, arguments, count: 1)
      return .enqueue(arguments[0])
    case "snapshot":
      try ModelError.expect(operation, arguments, count: 0)
      return .snapshot
    case "dequeue", "count":
      try ModelError.expect(operation, arguments, count: 0)
      return operation == "dequeue" ? .dequeue : .count
    default:
      throw .unknownOperation(model: Self.name, operation: operation)
    }
  }

  public mutating func apply(_ step: Step) -> Value {
    switch step {
    case .enqueue(let value):
      elements.append(value)
      return .null
    case .dequeue:
      return elements.isEmpty ? .null : elements.removeFirst()
    case .count:
      return .int(elements.count)
    case .snapshot:
      return .list(elements)
    }
  }

  /// `count`, and a `dequeue` that found the queue empty, change nothing.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool {
    switch step {
    case .count, .snapshot: return true
    case .dequeue: return result?.isNull == true
    case .enqueue: return false
    }
  }
}

extension QueueModel {
  /// What each operation of the vocabulary returns.
  public static func resultKinds(of operation: String) -> Value.Kinds {
    switch operation {
    case "enqueue": .null
    case "count": .int
    case "snapshot": .list
    default: .any
    }
  }
}
