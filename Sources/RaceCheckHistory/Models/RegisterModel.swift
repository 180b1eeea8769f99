/// The sequential model of a register holding one value: `read` and `write(v)`.
public struct RegisterModel: HistoryModel {
  /// The value held; `null` before the first write.
  public var value: Value

  public static let name = "register"
  public static let vocabulary = ["read", "write"]

  /// One decoded register operation.
  public enum Step: Hashable, Sendable {
    /// `read`: returns the value.
    case read
    /// `write(v)`: replaces the value with `v`.
    case write(Value)
  }

  public init() {
    value = .null
  }

  /// Creates a register holding `state`; any value is a register's state, so this cannot fail.
  public init(state: Value) {
    value = state
  }

  public var state: Value { value }

  public static func step(_ operation: String, _ arguments: [Value]) throws(ModelError) -> Step {
    switch operation {
    case "read":
      try ModelError.expect(operation, arguments, count: 0)
      return .read
    case "write":
      try ModelError.expect(operation, arguments, count: 1)
      return .write(arguments[0])
    default:
      throw .unknownOperation(model: Self.name, operation: operation)
    }
  }

  public mutating func apply(_ step: Step) -> Value {
    switch step {
    case .read: return value
    case .write(let newValue): value = newValue
    }
    return .null
  }

  /// `read` changes nothing.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool {
    step == .read
  }
}

extension RegisterModel {
  /// What each operation of the vocabulary returns.
  public static func resultKinds(of operation: String) -> Value.Kinds {
    operation == "write" ? .null : .any
  }
}
