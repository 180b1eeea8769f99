// Objective-C's `isEqual:` for the ported classes whose lookups compare equality, not identity.
// Foundation on Linux wraps each Swift object stored in an NSArray, so NSArray's own
// `containsObject:` would compare the wrappers; the ports compare the objects themselves.

/// Whether two objects are equal as `isEqual:` says: `==` for one `Equatable` type, else identity.
func isEqual(_ lhs: AnyObject, _ rhs: AnyObject) -> Bool {
  guard let lhs = lhs as? any Equatable else { return lhs === rhs }
  return lhs.isEqual(to: rhs)
}

extension Equatable {
  /// Whether `other` is of this type and equal to `self`.
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
