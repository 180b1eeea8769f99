/// The sequential model of a counter: `get`, `increment`, `add(n)`, `set(n)`.
public struct CounterModel: HistoryModel {
  /// The counter's value.
  public var value: Int

  public static let name = "counter"
  public static let vocabulary = ["get", "increment", "add", "set"]

  /// One decoded counter operation.
  public enum Step: Hashable, Sendable {
    /// `get`: returns the count.
    case get
    /// `increment`: adds 1 to the count.
    case increment
    /// `add(n)`: adds `n` to the count, wrapping on overflow.
    case add(Int)
    /// `set(n)`: replaces the count with `n`.
    case set(Int)
  }

  public init() {
    value = 0
  }

  public init(state: Value) throws(ModelError) {
    guard let value = state.intValue else {
      throw .wrongState(model: Self.name, expected: "an integer", got: state)
    }
    self.value = value
  }

  public var state: Value { .int(value) }

  public static func step(_ operation: String, _ arguments: [Value]) throws(ModelError) -> Step {
    switch operation {
    case "get", "increment":
      try ModelError.expect(operation, arguments, count: 0)
      return operation == "get" ? .get : .increment
    case "add", "set":
      try ModelError.expect(operation, arguments, count: 1)
      let amount = try ModelError.int(operation, arguments, 0)
      return operation == "add" ? .add(amount) : .set(amount)
    default:
      throw .unknownOperation(model: Self.name, operation: operation)
    }
  }

  public mutating func apply(_ step: Step) -> Value {
    switch step {
    case .get: return .int(value)
    case .increment: value &+= 1
    case .add(let amount): value &+= amount
    case .set(let newValue): value = newValue
    }
    return .null
  }

  /// `get` changes nothing.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool {
    step == .get
  }
}

extension CounterModel {
  /// What each operation of the vocabulary returns.
  public static func resultKinds(of operation: String) -> Value.Kinds {
    operation == "get" ? .int : .null
  }
}
