/// The sequential model of a dictionary-like type: `get(k)`, `set(k, v)`, `remove(k)`, ….
///
/// A key is any value a `Hashable & ValueConvertible` type records: strings, integers,
/// booleans, your own types. `keys` returns the keys sorted (numbers numerically,
/// strings by code unit); `values` returns the values sorted by key, so that results
/// compare the same whatever order the subject enumerates in.
///
/// ```swift
/// Spec("Scores", make: Scores.init, model: DictionaryModel()) {
///   Operation("get", .int(in: 0...3)) { (scores: Scores, player: Int) in scores[player] }
///   Operation("set", .int(in: 0...3), .int(in: 0...9)) { (scores: Scores, player: Int, score: Int) in
///     scores[player] = score
///   }
/// }
/// ```
public struct DictionaryModel: HistoryModel {
  /// The entries.
  public var entries: [Value: Value]

  public static let name = "dictionary"
  public static let vocabulary = ["get", "set", "remove", "count", "keys", "values"]

  /// One decoded dictionary operation.
  public enum Step: Hashable, Sendable {
    /// `get(k)`: returns the value of key `k`, or nil when it has none.
    case get(Value)
    /// `remove(k)`: removes key `k` and its value, if it has one.
    case remove(Value)
    /// `set(k, v)`: makes `v` the value of key `k`.
    case set(Value, Value)
    /// `count`: returns the number of keys.
    case count
    /// `keys`: returns the keys, sorted (numbers numerically, strings by code unit).
    case keys
    /// `values`: returns the values, in the order of their sorted keys.
    case values
  }

  public init() {
    entries = [:]
  }

  /// Creates a model holding `entries`.
  public init(_ entries: [Value: Value]) {
    self.entries = entries
  }

  /// Reads a state written as an object (string keys) or as a list of `[key, value]` pairs (any keys).
  public init(state: Value) throws(ModelError) {
    switch state {
    case .object(let members):
      entries = Dictionary(uniqueKeysWithValues: members.map { (Value.string($0.key), $0.value) })
    case .list(let pairs):
      var entries: [Value: Value] = [:]
      for pair in pairs {
        guard case .list(let parts) = pair, parts.count == 2, entries[parts[0]] == nil else {
          throw .wrongState(
            model: Self.name, expected: "an object or a list of distinct [key, value] pairs",
            got: state)
        }
        entries[parts[0]] = parts[1]
      }
      self.entries = entries
    default:
      throw .wrongState(model: Self.name, expected: "an object", got: state)
    }
  }

  /// An object when every key is a string, as history files write dictionaries; else a list of `[key, value]` pairs sorted by key.
  public var state: Value {
    var members: [String: Value] = [:]
    for (key, value) in entries {
      guard case .string(let name) = key else {
        return .list(sortedEntries.map { .list([$0.key, $0.value]) })
      }
      members[name] = value
    }
    return .object(members)
  }

  /// The value stored under `key`, as the model records it; a model closure reads and writes entries through it.
  ///
  /// ```swift
  /// model: { (state: inout DictionaryModel, key: String) in state[key] = .int((state[key]?.intValue ?? 0) + 1) }
  /// ```
  public subscript<Key: ValueConvertible>(key: Key) -> Value? {
    get { entries[key.historyValue] }
    set { entries[key.historyValue] = newValue }
  }

  private var sortedEntries: [(key: Value, value: Value)] {
    entries.sorted { Value.sortsBefore($0.key, $1.key) }
  }

  public static func step(_ operation: String, _ arguments: [Value]) throws(ModelError) -> Step {
    switch operation {
    case "get", "remove":
      try ModelError.expect(operation, arguments, count: 1)
      let key = arguments[0]
      return operation == "get" ? .get(key) : .remove(key)
    case "set":
      try ModelError.expect(operation, arguments, count: 2)
      return .set(arguments[0], arguments[1])
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
    case .keys: return .list(sortedEntries.map(\.key))
    case .values: return .list(sortedEntries.map(\.value))
    }
    return .null
  }

  /// The name of the part of a history that holds the key a step touches, or nil when it spans keys.
  ///
  /// A string key is its own name; another key is named by its JSON text. Two keys that
  /// share a name (`"7"` and `7`) are checked together, which is slower but as sound.
  package static func key(of step: Step) -> String? {
    switch step {
    case .get(let key), .remove(let key), .set(let key, _): return partName(of: key)
    case .count, .keys, .values: return nil
    }
  }

  static func partName(of key: Value) -> String {
    key.stringValue ?? key.description
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
  public static func resultKinds(of operation: String) -> Value.Kinds {
    switch operation {
    case "count": .int
    case "keys", "values": .list
    case "set", "remove": .null
    default: .any
    }
  }
}
