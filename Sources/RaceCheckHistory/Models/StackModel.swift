/// The sequential model of a LIFO stack: `push(v)`, `pop` → value or null when empty, `count`, `snapshot` → the elements, bottom first.
public struct StackModel: HistoryModel {
  /// The elements, bottom first.
  public var elements: [Value]

  public static let name = "stack"
  public static let vocabulary = ["push", "pop", "count", "snapshot"]

  /// One decoded stack operation.
  public enum Step: Hashable, Sendable {
    /// `push(v)`: puts `v` on top.
    case push(Value)
    /// `pop`: removes and returns the top element, or returns nil when the stack is empty.
    case pop
    /// `count`: returns the number of elements.
    case count
    /// `snapshot`: returns every element, bottom first.
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
    case "push":
      try ModelError.expect(operation, arguments, count: 1)
      return .push(arguments[0])
    case "snapshot":
      try ModelError.expect(operation, arguments, count: 0)
      return .snapshot
    case "pop", "count":
      try ModelError.expect(operation, arguments, count: 0)
      return operation == "pop" ? .pop : .count
    default:
      throw .unknownOperation(model: Self.name, operation: operation)
    }
  }

  public mutating func apply(_ step: Step) -> Value {
    switch step {
    case .push(let value):
      elements.append(value)
      return .null
    case .pop:
      return elements.popLast() ?? .null
    case .count:
      return .int(elements.count)
    case .snapshot:
      return .list(elements)
    }
  }

  /// `count`, and a `pop` that found the stack empty, change nothing.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool {
    switch step {
    case .count, .snapshot: return true
    case .pop: return result?.isNull == true
    case .push: return false
    }
  }
}

extension StackModel {
  /// What each operation of the vocabulary returns.
  public static func resultKinds(of operation: String) -> Value.Kinds {
    switch operation {
    case "push": .null
    case "count": .int
    case "snapshot": .list
    default: .any
    }
  }
}
