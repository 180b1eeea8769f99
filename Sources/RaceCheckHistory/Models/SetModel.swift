/// The sequential model of a set: `insert(v)` → newly inserted, `remove(v)` → was present, `contains(v)`, `count`, `snapshot` → the members, sorted.
public struct SetModel: HistoryModel {
  /// The members.
  public var members: Set<Value>

  public static let name = "set"
  public static let vocabulary = ["insert", "remove", "contains", "count", "snapshot"]

  /// One decoded set operation.
  public enum Step: Hashable, Sendable {
    /// `insert(v)`: adds `v`, and returns whether it was absent.
    case insert(Value)
    /// `remove(v)`: removes `v`, and returns whether it was present.
    case remove(Value)
    /// `contains(v)`: returns whether `v` is a member.
    case contains(Value)
    /// `count`: returns the number of members.
    case count
    /// `snapshot`: returns the members, sorted.
    case snapshot
  }

  public init() {
    members = []
  }

  public init(state: Value) throws(ModelError) {
    members = Set(try ModelError.list(state, model: Self.name))
  }

  /// The members as a list, in the order of their JSON text so that it is the same on every run.
  public var state: Value { .list(members.sorted { $0.description < $1.description }) }

  public static func step(_ operation: String, _ arguments: [Value]) throws(ModelError) -> Step {
    switch operation {
    case "insert", "remove", "contains":
      try ModelError.expect(operation, arguments, count: 1)
      switch operation {
      case "insert": return .insert(arguments[0])
      case "remove": return .remove(arguments[0])
      default: return .contains(arguments[0])
      }
    case "count", "snapshot":
      try ModelError.expect(operation, arguments, count: 0)
      return operation == "count" ? .count : .snapshot
    default:
      throw .unknownOperation(model: Self.name, operation: operation)
    }
  }

  public mutating func apply(_ step: Step) -> Value {
    switch step {
    case .insert(let value): return .bool(members.insert(value).inserted)
    case .remove(let value): return .bool(members.remove(value) != nil)
    case .contains(let value): return .bool(members.contains(value))
    case .count: return .int(members.count)
    case .snapshot: return .list(members.sorted(by: Value.sortsBefore))
    }
  }

  /// Reads, an insert of a member already there and a remove of an absent one change nothing.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool {
    switch step {
    case .contains, .count, .snapshot: return true
    case .insert, .remove: return result == false
    }
  }
}

extension SetModel {
  /// What each operation of the vocabulary returns.
  public static func resultKinds(of operation: String) -> Value.Kinds {
    switch operation {
    case "count": .int
    case "snapshot": .list
    default: .bool
    }
  }
}
