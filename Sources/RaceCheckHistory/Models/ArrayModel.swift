/// The sequential model of an array-like type: `count`, `get(i)`, `append(v)`, `insert(v, i)`, ….
///
/// Out-of-range reads return `nil`; out-of-range writes are ignored, as the
/// wrappers' own guards intend. `insert(v, i)` is valid for `0 ≤ i ≤ count`.
public struct ArrayModel: HistoryModel {
  /// The elements, first to last.
  public var elements: [Value]

  public static let name = "array"
  public static let vocabulary = [
    "count", "get", "first", "last", "append", "insert", "remove", "removeLast", "replace",
    "indexOf", "contains", "snapshot",
  ]

  /// One decoded array operation.
  public enum Step: Hashable, Sendable {
    /// `count`: returns the number of elements.
    case count
    /// `first`: returns the first element, or nil when the array is empty.
    case first
    /// `last`: returns the last element, or nil when the array is empty.
    case last
    /// `removeLast`: removes the last element, if there is one.
    case removeLast
    /// `snapshot`: returns every element, first to last.
    case snapshot
    /// `get(i)`: returns the element at index `i`, or nil when there is none.
    case get(Int)
    /// `remove(i)`: removes the element at index `i`, if there is one.
    case remove(Int)
    /// `append(v)`: adds `v` after the last element.
    case append(Value)
    /// `indexOf(v)`: returns the index of the first element equal to `v`, or nil when none is.
    case indexOf(Value)
    /// `contains(v)`: returns whether an element equals `v`.
    case contains(Value)
    /// `insert(v, i)`: inserts `v` at index `i` when `0 ≤ i ≤ count`, and otherwise does nothing.
    case insert(Value, Int)
    /// `replace(i, v)`: puts `v` in place of the element at index `i`, if there is one.
    case replace(Int, Value)
  }

  public init() {
    elements = []
  }

  /// Creates a model holding `elements`.
  public init(_ elements: [Value]) {
    self.elements = elements
  }

  public init(state: Value) throws(ModelError) {
    elements = try ModelError.list(state, model: Self.name)
  }

  public var state: Value { .list(elements) }

  /// The number of elements, for requirements such as `index < model.count`.
  public var count: Int { elements.count }

  public static func step(_ operation: String, _ arguments: [Value]) throws(ModelError) -> Step {
    switch operation {
    case "count", "first", "last", "removeLast", "snapshot":
      try ModelError.expect(operation, arguments, count: 0)
      switch operation {
      case "count": return .count
      case "first": return .first
      case "last": return .last
      case "removeLast": return .removeLast
      default: return .snapshot
      }
    case "get", "remove":
      try ModelError.expect(operation, arguments, count: 1)
      let index = try ModelError.int(operation, arguments, 0)
      return operation == "get" ? .get(index) : .remove(index)
    case "append", "indexOf", "contains":
      try ModelError.expect(operation, arguments, count: 1)
      switch operation {
      case "append": return .append(arguments[0])
      case "indexOf": return .indexOf(arguments[0])
      default: return .contains(arguments[0])
      }
    case "insert":
      try ModelError.expect(operation, arguments, count: 2)
      return .insert(arguments[0], try ModelError.int(operation, arguments, 1))
    case "replace":
      try ModelError.expect(operation, arguments, count: 2)
      return .replace(try ModelError.int(operation, arguments, 0), arguments[1])
    default:
      throw .unknownOperation(model: Self.name, operation: operation)
    }
  }

  public mutating func apply(_ step: Step) -> Value {
    switch step {
    case .count:
      return .int(elements.count)
    case .get(let index):
      return elements.indices.contains(index) ? elements[index] : .null
    case .first:
      return elements.first ?? .null
    case .last:
      return elements.last ?? .null
    case .append(let value):
      elements.append(value)
    case .insert(let value, let index):
      if (0...elements.count).contains(index) { elements.insert(value, at: index) }
    case .remove(let index):
      if elements.indices.contains(index) { elements.remove(at: index) }
    case .removeLast:
      if !elements.isEmpty { elements.removeLast() }
    case .replace(let index, let value):
      if elements.indices.contains(index) { elements[index] = value }
    case .indexOf(let value):
      return elements.firstIndex(of: value).map(Value.int) ?? .null
    case .contains(let value):
      return .bool(elements.contains(value))
    case .snapshot:
      return .list(elements)
    }
    return .null
  }

  /// The reads (`count`, `get`, `first`, `last`, `indexOf`, `contains`, `snapshot`) change nothing.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool {
    switch step {
    case .count, .get, .first, .last, .indexOf, .contains, .snapshot: return true
    case .append, .insert, .remove, .removeLast, .replace: return false
    }
  }
}

extension ArrayModel {
  /// What each operation of the vocabulary returns.
  public static func resultKinds(of operation: String) -> Value.Kinds {
    switch operation {
    case "count": .int
    case "indexOf": [.int, .null]
    case "contains": .bool
    case "snapshot": .list
    case "append", "insert", "remove", "removeLast", "replace": .null
    default: .any
    }
  }
}
