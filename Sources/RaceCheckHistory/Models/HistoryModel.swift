/// A sequential model that knows its operations by the names history files use.
///
/// The built-in models (``ArrayModel``, ``DictionaryModel``, ``CounterModel``,
/// ``RegisterModel``) conform. A spec over one of them needs only an adapter from
/// the subject's method names to the model's vocabulary:
///
/// ```swift
/// Operation("append", .int(in: 0...3)) { (array: LockArray, x: Int) in array.addObject(x) }
/// ```
public protocol HistoryModel: Hashable, Sendable {
  /// One operation of the vocabulary with its arguments checked and decoded.
  associatedtype Step: Hashable, Sendable

  /// The model's name in history files, such as `"array"`.
  static var name: String { get }

  /// The operation names of the vocabulary, in the order the documentation lists them.
  static var vocabulary: [String] { get }

  /// Creates the model in its default initial state.
  init()

  /// Creates the model from its initial state as history files write it.
  init(state: Value) throws(ModelError)

  /// The model's state as history files write it.
  var state: Value { get }

  /// Checks an operation's name and arguments against the vocabulary and decodes them.
  static func step(_ operation: String, _ arguments: [Value]) throws(ModelError) -> Step

  /// Applies one step and returns the result the model expects.
  mutating func apply(_ step: Step) -> Value

  /// Whether `step`, having returned `result` (nil: unknown), leaves every state in which that result is possible unchanged.
  ///
  /// The checker places such an operation as soon as its result fits, without trying
  /// other orders (moving an operation that changes nothing earlier breaks no
  /// linearization), and drops one whose outcome is unknown. The default, `false`, is always safe.
  static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool

  /// The kinds of value operation `operation` returns, so a spec whose result type can never match is rejected before it runs.
  ///
  /// The default, ``Value/Kinds/any``, rejects nothing.
  static func resultKinds(of operation: String) -> Value.Kinds
}

extension HistoryModel {
  /// Says ``Value/Kinds/any``: without knowing the model, any result may match.
  public static func resultKinds(of operation: String) -> Value.Kinds { .any }

  /// Says `false`: without knowing the model, every operation may change the state.
  public static func leavesStateUnchanged(_ step: Step, result: Value?) -> Bool { false }
}

/// Why a model rejected an operation or a state.
public enum ModelError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The model's vocabulary has no operation of this name.
  case unknownOperation(model: String, operation: String)
  /// The operation got the wrong number of arguments.
  case wrongArgumentCount(operation: String, expected: Int, got: Int)
  /// An argument has the wrong type.
  case wrongArgument(operation: String, position: Int, expected: String, got: Value)
  /// The initial state does not have the model's shape.
  case wrongState(model: String, expected: String, got: Value)
  /// The subject's side of an operation returns a kind of value the model's operation never does, so no result could match.
  case wrongResult(model: String, operation: String, expected: Value.Kinds, got: Value.Kinds)

  /// The rejection as a spec error or a history file error states it.
  public var description: String {
    switch self {
    case .unknownOperation(let model, let operation):
      return "the \(model) model has no operation '\(operation)'"
    case .wrongArgumentCount(let operation, let expected, let got):
      return "'\(operation)' takes \(expected) argument\(expected == 1 ? "" : "s"), got \(got)"
    case .wrongArgument(let operation, let position, let expected, let got):
      return "argument \(position + 1) of '\(operation)' must be \(expected), got \(got)"
    case .wrongState(let model, let expected, let got):
      return "the \(model) model's state must be \(expected), got \(got)"
    case .wrongResult(let model, let operation, let expected, let got):
      return "it returns \(got), but the \(model) model's '\(operation)' returns \(expected), "
        + "so no result could ever match: make the closure return \(expected)"
    }
  }
}

extension ModelError {
  /// Returns the elements of a list-shaped initial state, or the error naming `model`.
  static func list(_ state: Value, model: String) throws(ModelError) -> [Value] {
    guard let elements = state.listValue else {
      throw .wrongState(model: model, expected: "a list", got: state)
    }
    return elements
  }

  /// Checks that `arguments` has exactly `count` elements.
  static func expect(_ operation: String, _ arguments: [Value], count: Int) throws(ModelError) {
    guard arguments.count == count else {
      throw .wrongArgumentCount(operation: operation, expected: count, got: arguments.count)
    }
  }

  /// Returns argument `position` as an integer.
  static func int(_ operation: String, _ arguments: [Value], _ position: Int) throws(ModelError)
    -> Int
  {
    guard let value = arguments[position].intValue else {
      throw .wrongArgument(
        operation: operation, position: position, expected: "an integer", got: arguments[position])
    }
    return value
  }

  /// Returns argument `position` as a string.
  static func string(_ operation: String, _ arguments: [Value], _ position: Int) throws(ModelError)
    -> String
  {
    guard let value = arguments[position].stringValue else {
      throw .wrongArgument(
        operation: operation, position: position, expected: "a string", got: arguments[position])
    }
    return value
  }
}
