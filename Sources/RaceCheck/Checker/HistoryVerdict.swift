/// What checking a recorded history found: the verdict, each part's, and for a violation, why.
public struct HistoryVerdict: Sendable, Hashable, Codable {
  /// Whether the history has a linearization.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// Some order of the operations explains every result.
    case linearizable
    /// No order does.
    case notLinearizable = "not-linearizable"
    /// The time budget ran out before the search decided.
    case unknown
  }

  /// One part of a partitioned history (the whole history when it is not split).
  public struct Part: Sendable, Hashable, Codable {
    /// The key of the part, or nil for the whole history.
    public var key: String?
    /// The operations searched: the part's, without `fail` ones, `info` ones that change nothing and reads of nil read as unknown.
    public var operations: Int
    /// The part's verdict; `unknown` also when it was not finished because another part failed first.
    public var verdict: Kind
    /// Seconds its search took.
    public var seconds: Double
    /// For a linearizable part, the order its search found, as file indexes: every operation that took effect, each after those that returned before it was called.
    ///
    /// `fail` operations are not in it, nor `info` ones that the search did not need to
    /// take effect. Nil for a part that is not linearizable or was not decided.
    public var witness: [Int]? = nil
  }

  /// The verdict of the whole history.
  public var verdict: Kind
  /// Each part, in the order of the history's keys.
  public var parts: [Part]
  /// Why the history has no linearization, for `notLinearizable`.
  public var violation: Violation?
  /// Seconds the whole check took, explanation included.
  public var seconds: Double
}

/// Why one part of a history has no linearization.
public struct Violation: Sendable, Hashable, Codable {
  /// An operation that could come next after the longest partial linearization, and what the model says of it.
  public struct Candidate: Sendable, Hashable, Codable {
    /// Its index in the history file's operations.
    public var operation: Int
    /// What it returned; nil when its outcome is unknown.
    public var returned: Value?
    /// What the model returns in the state after the partial linearization.
    public var modelReturns: Value
    /// Whether the returned value fits; such a candidate fits here but every order after it fails.
    public var fits: Bool
  }

  /// The key of the failing part, or nil when the history was checked whole.
  public var key: String?
  /// The smallest prefix of the part's operations (in call order, file indexes) that still has no linearization.
  public var window: [Int]
  /// The longest partial linearization the search found, as file indexes in order.
  public var longestPrefix: [Int]
  /// The model's state after it, in the model's JSON form.
  public var state: Value
  /// The operations that could come next, none of which leads to a full linearization.
  public var candidates: [Candidate]
}
