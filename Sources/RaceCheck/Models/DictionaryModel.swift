/// The sequential model of a dictionary-like type with string keys: `get(k)`, `set(k, v)`, `remove(k)`, ….
///
/// `keys` returns the keys sorted; `values` returns the values sorted by key, so
/// that results compare the same whatever order the subject enumerates in.
public struct DictionaryModel: HistoryModel {
  /// The entries.
  public var entries: [String: Value]

  public static let name = "dictionary"
  public static let vocabulary = ["get", "set", "remove", "count", "keys", "values"]

  /// One decoded dictionary operation.
  public enum Step: Hashable, Sendable {
    case get(String)
    case remove(String)
    case set(String, Value)
    case count, keys, values
  }

  public init() {
    entries = [:]
  }

  public init(state: Value) throws(ModelError) {
    guard case .object(let entries) = state else {
      throw .wrongState(model: Self.name, expected: "an object", got: state)
    }
    self.entries = entries
  }

  public var state: Value { .object(entries) }

  public static func step(_ operation: String, _ arguments: [Value]) throws(ModelError) -> Step {
    switch operation {
    case "get", "remove":
      try ModelError.expect(operation, arguments, count: 1)
      let key = try ModelError.string(operation, arguments, 0)
      return operation == "get" ? .get(key) : .remove(key)
    case "set":
      try ModelError.expect(operation, arguments, count: 2)
      return .set(try ModelError.string(operation, arguments, 0), arguments[1])
    case "count", "keys", "values":
      try ModelError.expect(operation, arguments, count: 0)
      return operation == "count" ? .count : operation == "keys" ? .keys : .values
    default:
      throw .unknownOperation(model: Self.name, operation: operation)
    }
  }

  public mutating func apply(_ step: Step) -> Value {
    switch step {
    case .get(let key): return entries[key] ?? .null
    case .set(let key, let value): entries[key] = value
    case .remove(let key): entries[key] = nil
    case .count: return .int(entries.count)
    case .keys: return .list(entries.keys.sorted().map(Value.string))
    case .values: return .list(entries.sorted { $0.key < $1.key }.map(\.value))
    }
    return .null
  }

  /// The key a step touches, or nil when it spans keys.
  package static func key(of step: Step) -> String? {
    switch step {
    case .get(let key), .remove(let key), .set(let key, _): return key
    case .count, .keys, .values: return nil
    }
  }

  /// The reads (`get`, `count`, `keys`, `values`) change nothing.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool {
    switch step {
    case .get, .count, .keys, .values: return true
    case .set, .remove: return false
    }
  }
}

extension DictionaryModel {
  /// What each operation of the vocabulary returns.
  public static func resultKinds(of operation: String) -> ValueKinds {
    switch operation {
    case "count": .int
    case "keys", "values": .list
    case "set", "remove": .null
    default: .any
    }
  }
}
