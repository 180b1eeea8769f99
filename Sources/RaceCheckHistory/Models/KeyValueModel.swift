/// The sequential model of a string key-value store: `get(k)` → string, `put(k, v)`, `append(k, v)`.
///
/// The store of Porcupine's and Jepsen's key-value tests: an absent key reads as `""`,
/// and `append` concatenates. Keys are independent, so histories are checked per key.
public struct KeyValueModel: HistoryModel {
  /// The values by key; an absent key reads as `""`.
  public var values: [String: String]

  public static let name = "kv"
  public static let vocabulary = ["get", "put", "append"]

  /// One decoded key-value operation.
  public enum Step: Hashable, Sendable {
    /// `get(k)`: returns the string of key `k`, `""` when it has none.
    case get(String)
    /// `put(k, v)`: makes `v` the string of key `k`.
    case put(String, String)
    /// `append(k, v)`: adds `v` to the end of the string of key `k`.
    case append(String, String)
  }

  public init() {
    values = [:]
  }

  public init(state: Value) throws(ModelError) {
    guard case .object(let members) = state else {
      throw .wrongState(model: Self.name, expected: "an object of strings", got: state)
    }
    var values: [String: String] = [:]
    for (key, value) in members {
      guard let string = value.stringValue else {
        throw .wrongState(model: Self.name, expected: "an object of strings", got: state)
      }
      values[key] = string
    }
    self.values = values
  }

  public var state: Value { .object(values.mapValues(Value.string)) }

  public static func step(_ operation: String, _ arguments: [Value]) throws(ModelError) -> Step {
    switch operation {
    case "get":
      try ModelError.expect(operation, arguments, count: 1)
      return .get(try ModelError.string(operation, arguments, 0))
    case "put", "append":
      try ModelError.expect(operation, arguments, count: 2)
      let key = try ModelError.string(operation, arguments, 0)
      let value = try ModelError.string(operation, arguments, 1)
      return operation == "put" ? .put(key, value) : .append(key, value)
    default:
      throw .unknownOperation(model: Self.name, operation: operation)
    }
  }

  public mutating func apply(_ step: Step) -> Value {
    switch step {
    case .get(let key):
      return .string(values[key] ?? "")
    case .put(let key, let value):
      values[key] = value
    case .append(let key, let value):
      values[key, default: ""] += value
    }
    return .null
  }

  /// `get` changes nothing.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool {
    if case .get = step { return true }
    return false
  }
}

extension KeyValueModel: KeyedHistoryModel {
  package static func key(of step: Step) -> String? {
    switch step {
    case .get(let key), .put(let key, _), .append(let key, _): return key
    }
  }

  package func restricted(to key: String) -> KeyValueModel {
    // Most stores start empty: then every key's part does, without hashing the key.
    if values.isEmpty { return self }
    var part = KeyValueModel()
    part.values[key] = values[key]
    return part
  }
}

extension KeyValueModel {
  /// What each operation of the vocabulary returns.
  public static func resultKinds(of operation: String) -> Value.Kinds {
    operation == "get" ? .string : .null
  }
}
