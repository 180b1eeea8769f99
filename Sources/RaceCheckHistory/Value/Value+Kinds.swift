extension Value {
  /// The kinds of ``Value`` a result can take, so a spec's result type can be checked against its model's before anything runs.
  ///
  /// ```swift
  /// Int?.historyValueKinds  // [.int, .null]
  /// SetModel.resultKinds(of: "insert")  // .bool
  /// ```
  public struct Kinds: OptionSet, Hashable, Sendable {
    /// The kinds as bits, one for each case of ``Value``.
    public let rawValue: UInt8

    /// Creates the set of kinds whose bits `rawValue` holds.
    public init(rawValue: UInt8) {
      self.rawValue = rawValue
    }

    /// `null`: what an operation that returns nothing records.
    public static let null = Kinds(rawValue: 1 << 0)
    /// A boolean.
    public static let bool = Kinds(rawValue: 1 << 1)
    /// An integer.
    public static let int = Kinds(rawValue: 1 << 2)
    /// A number with a fraction.
    public static let double = Kinds(rawValue: 1 << 3)
    /// A string.
    public static let string = Kinds(rawValue: 1 << 4)
    /// A list.
    public static let list = Kinds(rawValue: 1 << 5)
    /// An object.
    public static let object = Kinds(rawValue: 1 << 6)
    /// Any value at all: what a type says when it cannot tell.
    public static let any: Kinds = [.null, .bool, .int, .double, .string, .list, .object]

    /// The kind of `value`.
    public init(of value: Value) {
      switch value {
      case .null: self = .null
      case .bool: self = .bool
      case .int: self = .int
      case .double: self = .double
      case .string: self = .string
      case .list: self = .list
      case .object: self = .object
      }
    }
  }
}

extension Value.Kinds: CustomStringConvertible {
  /// The kinds as a spec error names them: `nothing`, `a Bool`, `an Int or nil`.
  public var description: String {
    if self == .any { return "any value" }
    if self == .null { return "nothing" }
    let names: [(Value.Kinds, String)] = [
      (.bool, "a Bool"), (.int, "an Int"), (.double, "a Double"), (.string, "a String"),
      (.list, "a list"), (.object, "an object"),
    ]
    var parts = names.filter { contains($0.0) }.map(\.1)
    if contains(.null) { parts.append("nil") }
    return parts.joined(separator: " or ")
  }
}
