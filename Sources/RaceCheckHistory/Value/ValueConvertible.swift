/// A type whose instances racecheck can record as a ``Value`` and rebuild from one.
///
/// Operation arguments and results conform so that scenarios and histories can be
/// stored, compared and replayed. Conform your own element types to use them as
/// arguments:
///
/// ```swift
/// extension Token: ValueConvertible {
///   var historyValue: Value { .int(id) }
///   convenience init?(historyValue: Value) { guard let id = historyValue.intValue else { return nil }; self.init(id) }
/// }
/// ```
///
/// A class's `init?(historyValue:)` makes a new instance on each call, so an operation
/// receives an object that is equal to, but not identical with, any object stored earlier.
public protocol ValueConvertible: SendableMetatype {
  /// The value recorded in histories for this instance.
  var historyValue: Value { get }

  /// Creates an instance from a recorded value, or returns nil when the value has another shape.
  init?(historyValue: Value)

  /// The kinds of value instances record; the default, ``Value/Kinds/any``, claims nothing.
  static var historyValueKinds: Value.Kinds { get }
}

extension ValueConvertible {
  public static var historyValueKinds: Value.Kinds { .any }
}

extension Value: ValueConvertible {
  public var historyValue: Value { self }
  public init?(historyValue: Value) { self = historyValue }
}

extension Int: ValueConvertible {
  public static var historyValueKinds: Value.Kinds { .int }
  public var historyValue: Value { .int(self) }
  public init?(historyValue: Value) {
    guard case .int(let value) = historyValue else { return nil }
    self = value
  }
}

extension UInt: ValueConvertible {
  public static var historyValueKinds: Value.Kinds { .int }
  public var historyValue: Value { .int(Int(truncatingIfNeeded: self)) }
  public init?(historyValue: Value) {
    guard case .int(let value) = historyValue, value >= 0 else { return nil }
    self = UInt(value)
  }
}

extension Bool: ValueConvertible {
  public static var historyValueKinds: Value.Kinds { .bool }
  public var historyValue: Value { .bool(self) }
  public init?(historyValue: Value) {
    guard case .bool(let value) = historyValue else { return nil }
    self = value
  }
}

extension String: ValueConvertible {
  public static var historyValueKinds: Value.Kinds { .string }
  public var historyValue: Value { .string(self) }
  public init?(historyValue: Value) {
    guard case .string(let value) = historyValue else { return nil }
    self = value
  }
}

extension Double: ValueConvertible {
  public static var historyValueKinds: Value.Kinds { .double }
  public var historyValue: Value { .double(self) }
  public init?(historyValue: Value) {
    switch historyValue {
    case .double(let value): self = value
    case .int(let value): self = Double(value)
    default: return nil
    }
  }
}

extension Optional: ValueConvertible where Wrapped: ValueConvertible {
  public static var historyValueKinds: Value.Kinds { Wrapped.historyValueKinds.union(.null) }
  public var historyValue: Value { self?.historyValue ?? .null }
  public init?(historyValue: Value) {
    if historyValue.isNull {
      self = .none
    } else if let wrapped = Wrapped(historyValue: historyValue) {
      self = .some(wrapped)
    } else {
      return nil
    }
  }
}

extension Array: ValueConvertible where Element: ValueConvertible {
  public static var historyValueKinds: Value.Kinds { .list }
  public var historyValue: Value { .list(map(\.historyValue)) }
  public init?(historyValue: Value) {
    guard case .list(let values) = historyValue else { return nil }
    var elements: [Element] = []
    elements.reserveCapacity(values.count)
    for value in values {
      guard let element = Element(historyValue: value) else { return nil }
      elements.append(element)
    }
    self = elements
  }
}

/// A result that may be an error: a success is its value, an error `{"error": "Type.case"}`.
///
/// An operation whose calls may throw by contract records a thrown error so
/// (``Value/thrownError(_:)``), and its model says which calls throw by returning a `Result`:
/// the two compare equal when the error's type and description do.
extension Result: ValueConvertible where Success: ValueConvertible {
  public static var historyValueKinds: Value.Kinds { Success.historyValueKinds.union(.object) }
  public var historyValue: Value {
    switch self {
    case .success(let value): value.historyValue
    case .failure(let error): .thrownError(error)
    }
  }
  /// A success decoded from its value; an error cannot be made again from its description.
  public init?(historyValue: Value) {
    guard let success = Success(historyValue: historyValue) else { return nil }
    self = .success(success)
  }
}

extension Value {
  /// What a call that threw `error` returns, for an operation that records thrown errors: `{"error": "BankError.insufficientFunds"}`.
  public static func thrownError(_ error: any Error) -> Value {
    .object(["error": .string("\(type(of: error)).\(error)")])
  }
}
