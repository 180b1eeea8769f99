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
    /// How long its search took.
    public var elapsed: Duration
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
  package var violation: Violation?
  /// How long the whole check took, explanation included.
  ///
  /// ```swift
  /// let verdict = try HistoryChecker().check(history)
  /// print(verdict.elapsed)  // 0.012 seconds
  /// ```
  public var elapsed: Duration
}

/// Why one part of a history has no linearization.
package struct Violation: Sendable, Hashable, Codable {
  /// An operation that could come next after the longest partial linearization, and what the model says of it.
  package struct Candidate: Sendable, Hashable, Codable {
    /// Its index in the history file's operations.
    package var operation: Int
    /// What it returned; nil when its outcome is unknown.
    package var returned: Value?
    /// What the model returns in the state after the partial linearization.
    package var modelReturns: Value
    /// Whether the returned value fits; such a candidate fits here but every order after it fails.
    package var fits: Bool
  }

  /// How the violation was found without search: a proof a reader can check by hand.
  package enum Proof: Sendable, Hashable, Codable {
    /// A read, or a successful compare-and-set expecting `value`, saw a value that is not the
    /// initial one and that no operation which may store it was called before it returned.
    case impossibleRead(operation: Int, value: Value)
    /// A read, a `get`, or a successful compare-and-set expecting `value`, saw a value that had
    /// been overwritten before it was called: `overwriter`, a completed store, returned before
    /// it was called, and every operation that may have stored `value` and was called before
    /// it returned (`producers`, in call order; and the initial state, when `initialHeld`)
    /// returned before `overwriter` was called.
    case staleRead(
      operation: Int, value: Value, producers: [Int], initialHeld: Bool, overwriter: Int)
  }

  /// How far the search for the smallest failing window got.
  package enum WindowExtent: String, Sendable, Hashable, Codable {
    /// The smallest failing prefix in time.
    case smallest
    /// A failing prefix, cut where the explanation's budget ran out; a smaller one may fail too.
    case budgetExhausted = "budget-exhausted"
    /// The prefix up to the return of the operation a ``Proof`` cites.
    case upToProof = "up-to-proof"
  }

  /// The key of the failing part, or nil when the history was checked whole.
  package var key: String?
  /// The smallest prefix of the part's operations (in call order, file indexes) that still has no linearization.
  ///
  /// When ``windowExtent`` is not ``WindowExtent/smallest``, a failing prefix that a smaller one may be hidden in.
  package var window: [Int]
  /// Whether ``window`` is known to be the smallest.
  package var windowExtent: WindowExtent = .smallest
  /// The proof that decided the violation without search, if one did.
  package var proof: Proof?
  /// The longest partial linearization the search found, as file indexes in order.
  package var longestPrefix: [Int]
  /// The model's state after it, in the model's JSON form.
  package var state: Value
  /// The operations that could come next, none of which leads to a full linearization.
  package var candidates: [Candidate]
}
