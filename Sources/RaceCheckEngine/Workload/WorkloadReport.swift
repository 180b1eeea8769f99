/// What a workload found: the history its clients recorded, with the faults injected, and the checker's verdict on it.
public struct WorkloadReport: Sendable {
  /// The workload's name: its spec's.
  public var name: String
  /// How many clients called at once.
  public var clients: Int
  /// Every call the clients made, calls of unknown outcome included, and the faults.
  public var history: RecordedHistory
  /// Whether some order of the calls explains every result.
  public var verdict: HistoryVerdict
  /// How long the clients ran.
  public var elapsed: Duration
  /// The signal that stopped the clients before their limit, if one did.
  public var stoppedBy: Int32?

  /// The calls whose outcome is unknown: they threw, timed out, or were still running at the end.
  public var unknownOperations: Int {
    history.operations.count(where: { $0.status == .info })
  }

  /// The calls known to have had no effect.
  public var failedOperations: Int {
    history.operations.count(where: { $0.status == .fail })
  }
}
