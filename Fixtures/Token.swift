import RaceCheck

/// An element object for the array fixtures: equal by value, identical only when interned.
///
/// ```swift
/// Token(value: 1) == Token(value: 1)         // true: equal values
/// Token(value: 1) === Token(value: 1)        // false: two instances
/// Token.interned(1) === Token.interned(1)    // true: one shared instance
/// ```
public final class Token: ValueConvertible, Equatable, CustomStringConvertible, Sendable {
  /// The number this token stands for.
  public let value: Int

  /// Creates a new token, distinct from every other instance.
  public init(value: Int) {
    self.value = value
  }

  /// Creates a new token from a recorded integer, or returns nil when the value is not an integer.
  ///
  /// Each call makes a fresh instance, so an operation receives a token equal to, but not
  /// identical with, any token stored earlier.
  public convenience init?(historyValue: Value) {
    guard let value = historyValue.intValue else { return nil }
    self.init(value: value)
  }

  /// The one shared token for `value` (0...63), as an Objective-C literal constant is one object.
  public static func interned(_ value: Int) -> Token {
    precondition(
      internedTokens.indices.contains(value),
      "Token.interned(_:) holds the values 0...63, not \(value)")
    return internedTokens[value]
  }

  /// The interned tokens, made once; a `let` needs no lock.
  private static let internedTokens: [Token] = (0...63).map { Token(value: $0) }

  /// The token's value, as histories record it.
  public var historyValue: Value { .int(value) }

  /// The token as reports show it, such as `Token(3)`.
  public var description: String { "Token(\(value))" }

  /// Whether two tokens hold the same value, whether or not they are the same instance.
  public static func == (lhs: Token, rhs: Token) -> Bool {
    lhs.value == rhs.value
  }
}
