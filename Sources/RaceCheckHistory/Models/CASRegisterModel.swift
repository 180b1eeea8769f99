/// The sequential model of a compare-and-set register: `read`, `write(v)`, `cas(expected, new)` → bool.
///
/// The register of Jepsen's etcd tests: it holds one value, `null` before the first write.
public struct CASRegisterModel: HistoryModel {
  /// The value held; `null` before the first write.
  public var value: Value

  public static let name = "cas-register"
  public static let vocabulary = ["read", "write", "cas"]

  /// One decoded compare-and-set register operation.
  public enum Step: Hashable, Sendable {
    /// `read`: returns the value.
    case read
    /// `write(v)`: replaces the value with `v`.
    case write(Value)
    /// `cas(expected, new)`: replaces the value with `new` if it equals `expected`, and returns whether it did.
    case cas(expected: Value, new: Value)
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
    case "cas":
      try ModelError.expect(operation, arguments, count: 2)
      return .cas(expected: arguments[0], new: arguments[1])
    default:
      throw .unknownOperation(model: Self.name, operation: operation)
    }
  }

  public mutating func apply(_ step: Step) -> Value {
    switch step {
    case .read:
      return value
    case .write(let newValue):
      value = newValue
    case .cas(let expected, let newValue):
      guard value == expected else { return false }
      value = newValue
      return true
    }
    return .null
  }

  /// `read`, and a `cas` that returned false, change nothing.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool {
    switch step {
    case .read: return true
    case .write: return false
    case .cas: return result == false
    }
  }
}

extension CASRegisterModel {
  /// What each operation of the vocabulary returns.
  public static func resultKinds(of operation: String) -> Value.Kinds {
    switch operation {
    case "write": .null
    case "cas": .bool
    default: .any
    }
  }
}
