/// A history as a file records it, before any model reads it: the model's name, its initial state and the operations.
///
/// ``init(contentsOf:format:model:)`` reads one from a history file or a Jepsen history;
/// ``HistoryChecker`` decodes it with the named model and checks it.
///
/// ```swift
/// let history = try RecordedHistory(contentsOf: "kv.edn", format: .jepsen)
/// let verdict = try HistoryChecker().check(history)
/// ```
public struct RecordedHistory: Hashable, Sendable {
  /// One operation, as it ran or as a history file holds it: who called what, when it was called and returned, and what came back.
  ///
  /// It is racecheck's one shape of an operation: a run records its calls in it, history
  /// files and repro files hold it (its `Codable` form is an element of a history file's
  /// `operations`), and the checker and the diagnoses read it. Operation A precedes
  /// operation B exactly when A returned before B was called; equal times overlap.
  public struct Operation: Hashable, Sendable {
    /// What is known of an operation's outcome.
    public enum Status: String, Hashable, Sendable, Codable {
      /// It completed with its result.
      case ok
      /// It is known not to have taken effect.
      case fail
      /// Its outcome is unknown: it may have taken effect at any point after its call, or never.
      case info
    }

    /// The thread or client that made the call: an integer or a string (a run's thread is its index).
    public var process: Value
    /// The operation's name: in a history file, the model's name for it; in a run, the spec's.
    public var name: String
    /// Its arguments.
    public var arguments: [Value]
    /// When it was called: an integer in any unit from any origin, as only the order of times counts.
    public var call: Int64
    /// When it returned; nil when its outcome is unknown.
    public var `return`: Int64?
    /// What it returned; `null` for operations that return nothing.
    public var result: Value
    /// What is known of its outcome.
    public var status: Status
    /// Where in its file it was read.
    public var source: SourceLocation

    /// Creates an operation.
    public init(
      process: Value, name: String, arguments: [Value], call: Int64, return: Int64?,
      result: Value = .null, status: Status = .ok, source: SourceLocation = .unknown
    ) {
      self.process = process
      self.name = name
      self.arguments = arguments
      self.call = call
      self.return = `return`
      self.result = result
      self.status = status
      self.source = source
    }
  }

  /// The model's name, such as `"kv"`.
  public var model: String
  /// The model's initial state in its JSON form; nil for the model's default.
  public var initial: Value?
  /// Free-form facts about the run.
  public var meta: Value?
  /// The operations, in any order.
  public var operations: [Operation]
  /// The faults injected while the operations ran, in the order they began; the checker does not read them.
  public var faults: [Fault]

  /// Creates a history.
  public init(
    model: String, initial: Value? = nil, meta: Value? = nil, operations: [Operation],
    faults: [Fault] = []
  ) {
    self.model = model
    self.initial = initial
    self.meta = meta
    self.operations = operations
    self.faults = faults
  }
}
