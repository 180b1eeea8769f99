extension RecordedHistory {
  /// Where in its file an operation was read, so that reports cite what a reader can find.
  public enum SourceLocation: Hashable, Sendable {
    /// Not read from a file (a run's own history): reports cite the operation by its index.
    case unknown
    /// An element of a history file's `operations` array, which starts on this 1-based line.
    case element(line: Int)
    /// A Jepsen operation: the line of its invocation and of its completion (nil when it never completed).
    case event(invocation: Int, completion: Int?)

    /// The line where the operation starts; nil when it is not known.
    public var line: Int? {
      switch self {
      case .unknown: return nil
      case .element(let line): return line
      case .event(let invocation, _): return invocation
      }
    }
  }
}

extension RecordedHistory.SourceLocation {
  /// How reports name the operation at `index`: `operations[3]`, `operations[3] (line 7)`, or for Jepsen `line 7` / `lines 7–9`.
  ///
  /// A Jepsen history's operations are numbered by the importer, not the file, so only its
  /// lines are cited; a history file's index is its own, so the line is added to it.
  public func citation(index: Int) -> String {
    switch self {
    case .unknown: return "operations[\(index)]"
    case .element(let line): return "operations[\(index)] (line \(line))"
    case .event(let invocation, let completion?) where completion != invocation:
      return "lines \(invocation)–\(completion)"
    case .event(let invocation, _): return "line \(invocation)"
    }
  }
}

extension RecordedHistory {
  /// How reports name operation `index`: by its line where the file has lines, see ``SourceLocation/citation(index:)``.
  public func citation(of index: Int) -> String {
    operations[index].source.citation(index: index)
  }
}
