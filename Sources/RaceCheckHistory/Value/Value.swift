/// A value passed to or returned by an operation, in the JSON shape of history files.
///
/// Operations take and return typed Swift values; racecheck records them as
/// `Value`s so that scenarios, histories and repro files can be compared,
/// hashed and written to disk:
///
/// ```swift
/// let args: [Value] = [7, "seven", nil]
/// ```
public enum Value: Hashable, Sendable {
  /// JSON `null`: no value, or an absent optional.
  case null
  /// A JSON boolean.
  case bool(Bool)
  /// A JSON number without a fraction.
  case int(Int)
  /// A JSON number with a fraction.
  case double(Double)
  /// A JSON string.
  case string(String)
  /// A JSON array.
  case list([Value])
  /// A JSON object.
  case object([String: Value])
}

extension Value {
  /// The integer this value holds, or nil when it holds something else.
  public var intValue: Int? {
    if case .int(let value) = self { return value }
    return nil
  }

  /// The string this value holds, or nil when it holds something else.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The elements of this list, or nil when it is not a list.
  public var listValue: [Value]? {
    if case .list(let value) = self { return value }
    return nil
  }

  /// Whether this value is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

extension Value: CustomStringConvertible {
  /// The value as compact JSON, which is how reports show arguments and results.
  public var description: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .int(let value): return String(value)
    case .double(let value): return String(value)
    case .string(let value): return Value.quoted(value)
    case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
    case .object(let members):
      let body = members.sorted { $0.key < $1.key }
        .map { Value.quoted($0.key) + ": " + $0.value.description }
      return "{" + body.joined(separator: ", ") + "}"
    }
  }

  /// `string` as a JSON string literal, with JSON's escapes.
  package static func quoted(_ string: String) -> String {
    // Most strings need no escape: copying them whole keeps large documents fast.
    if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
      return "\"" + string + "\""
    }
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        result +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByStringLiteral, ExpressibleByArrayLiteral
{
  /// `nil` as a value: ``null``.
  public init(nilLiteral: ()) { self = .null }
  /// `true` or `false` as a value: ``bool(_:)``.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer literal as a value: ``int(_:)``.
  public init(integerLiteral value: Int) { self = .int(value) }
  /// A string literal as a value: ``string(_:)``.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array literal of values as a value: ``list(_:)``, so `[7, "seven", nil]` is a list of three.
  public init(arrayLiteral elements: Value...) { self = .list(elements) }
}
