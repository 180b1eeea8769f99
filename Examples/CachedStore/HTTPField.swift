/// One header field of an ``HTTPRequest`` or an ``HTTPResponse``, its name lowercased (field names are case-insensitive).
public struct HTTPField: Hashable, Sendable {
  /// The field's name, lowercased.
  public var name: String
  /// The field's value, without the spaces around it.
  public var value: String

  /// Creates a field, lowercasing `name`.
  public init(name: String, value: String) {
    self.name = name.lowercased()
    self.value = value
  }
}
