import RaceCheckEngine

/// A history drawn as lanes of bars, one lane per thread or process, with what the checker found marked.
///
/// The page's script draws it on a canvas from the JSON ``Timeline/json`` writes; the
/// same facts are written as plain HTML beside it, so a reader without the script, or a
/// test, reads them too.
struct Timeline: Sendable {
  /// One operation in its lane: a bar from its call to its return, labelled with its call and result.
  struct Operation: Sendable, Hashable {
    /// The lane of the thread or process that made it.
    var lane: Int
    /// The operation as it ran or as its file holds it: a bar of unknown outcome runs to the end, and one read from a file is named by its line.
    var recorded: RecordedHistory.Operation
    /// What it returned, as reports show it; nil for an operation whose result reports leave out.
    var result: String?

    /// Where its bar ends: its return, or nil, which runs the bar to the end, when its outcome is unknown.
    var returnTime: Int64? { recorded.status == .info ? nil : recorded.return }
  }

  /// An operation that could come next after the longest linearization, and why no full order starts with it.
  struct Candidate: Sendable, Hashable {
    /// Why an operation that could come next leads to no full order.
    enum Failure: Sendable, Hashable {
      /// It cannot be placed: it returned one result, and the model allows another in that state.
      case unplaceable(returned: String, allowed: String)
      /// It fits there (its result is the model's, or its outcome is unknown, nil), but no order after it works.
      case deadEnd(returned: String?)
    }

    /// Its index in ``Timeline/operations``.
    var operation: Int
    /// Why it leads to no full order.
    var failure: Failure

    /// Whether it fits after the longest linearization, and only what follows fails.
    var fits: Bool {
      if case .deadEnd = failure { return true }
      return false
    }
  }

  /// Why the history has no linearization: the marks the page draws.
  struct Marks: Sendable, Hashable {
    /// The smallest failing window, as indexes in call order; nil when it was not worked out.
    var window: [Int]?
    /// The longest linearization found, as indexes in the order the checker placed them.
    var order: [Int]
    /// The model's state after it, as history files write it.
    var state: String
    /// The operations that could come next, none of which leads to a full linearization.
    var candidates: [Candidate]
  }

  /// The lanes' titles, such as `Thread 0` or `process "n1"`.
  var lanes: [String]
  /// The operations, in the order the history lists them: indexes in marks refer to it.
  var operations: [Operation]
  /// What the checker found, for a history with no linearization; nil otherwise.
  var marks: Marks?
  /// The faults a workload's nemesis injected, drawn as bands across the lanes.
  var faults: [RecordedHistory.Fault] = []
}
