extension RecordedHistory {
  /// A fault injected into a running system while its history was recorded: what was done to which process, and when.
  ///
  /// A workload's nemesis records one for every fault (`faults` in a history file); the
  /// checker never reads them, and the reports draw them beside the operations, so that a
  /// violation is read next to the fault that caused it.
  ///
  /// ```swift
  /// let fault = RecordedHistory.Fault(kind: .pause, target: "etcd-2", start: 1_200, end: 2_400)
  /// ```
  public struct Fault: Hashable, Sendable {
    /// What was done to the process.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
      /// The process was stopped (`SIGSTOP`) and, at ``Fault/end``, continued (`SIGCONT`).
      case pause
      /// The process was killed (`SIGKILL`) and, at ``Fault/end``, started again.
      case kill
    }

    /// What was done.
    public var kind: Kind
    /// The process it was done to, by the name the workload gave it.
    public var target: String
    /// When the fault began, on the clock of the operations' times.
    public var start: Int64
    /// When the process was continued or started again; nil when it never was.
    public var end: Int64?

    /// Creates a fault.
    public init(kind: Kind, target: String, start: Int64, end: Int64?) {
      self.kind = kind
      self.target = target
      self.start = start
      self.end = end
    }

    /// The fault as a history file's `faults` element writes it.
    var json: Value {
      var fields: [String: Value] = [
        "fault": .string(kind.rawValue), "target": .string(target), "start": .int(Int(start)),
      ]
      if let end { fields["end"] = .int(Int(end)) }
      return .object(fields)
    }

    /// Reads a `faults` element, or says what is wrong with it.
    init(json: Value) throws(HistoryFileError.FaultProblem) {
      guard case .object(let fields) = json else {
        throw .notAnObject(got: HistoryFileError.describe(json))
      }
      guard let kindValue = fields["fault"] else { throw .missingField("fault") }
      guard let kindName = kindValue.stringValue, let kind = Kind(rawValue: kindName) else {
        throw .wrongType(
          field: "fault", expected: "\"pause\" or \"kill\"",
          got: HistoryFileError.describe(kindValue))
      }
      guard let targetValue = fields["target"] else { throw .missingField("target") }
      guard let target = targetValue.stringValue else {
        throw .wrongType(
          field: "target", expected: "a string", got: HistoryFileError.describe(targetValue))
      }
      guard let startValue = fields["start"] else { throw .missingField("start") }
      guard case .int(let startTime) = startValue else {
        throw .wrongType(
          field: "start", expected: "an integer", got: HistoryFileError.describe(startValue))
      }
      let start = Int64(startTime)
      var end: Int64?
      switch fields["end"] {
      case nil, .null?: end = nil
      case .int(let value)?:
        guard Int64(value) >= start else { throw .endBeforeStart(start: start, end: Int64(value)) }
        end = Int64(value)
      case let other?:
        throw .wrongType(
          field: "end", expected: "an integer", got: HistoryFileError.describe(other))
      }
      self.init(kind: kind, target: target, start: start, end: end)
    }
  }
}
