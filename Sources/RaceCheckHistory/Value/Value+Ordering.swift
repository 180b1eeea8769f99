extension Value {
  /// Whether `lhs` sorts before `rhs` in the order models list keys in.
  ///
  /// Values of one kind sort by their contents (numbers numerically, strings by code
  /// unit, lists element by element); values of different kinds by kind, nulls first, so
  /// that a dictionary with `Int` keys lists them as `keys.sorted()` does.
  package static func sortsBefore(_ lhs: Value, _ rhs: Value) -> Bool {
    switch (lhs, rhs) {
    case (.bool(let left), .bool(let right)): return !left && right
    case (.int(let left), .int(let right)): return left < right
    case (.double(let left), .double(let right)): return left < right
    case (.int(let left), .double(let right)): return Double(left) < right
    case (.double(let left), .int(let right)): return left < Double(right)
    case (.string(let left), .string(let right)): return left < right
    case (.list(let left), .list(let right)):
      for (leftElement, rightElement) in zip(left, right) where leftElement != rightElement {
        return sortsBefore(leftElement, rightElement)
      }
      return left.count < right.count
    default:
      return lhs.kindRank != rhs.kindRank
        ? lhs.kindRank < rhs.kindRank : lhs.description < rhs.description
    }
  }

  private var kindRank: Int {
    switch self {
    case .null: 0
    case .bool: 1
    case .int, .double: 2
    case .string: 3
    case .list: 4
    case .object: 5
    }
  }
}
