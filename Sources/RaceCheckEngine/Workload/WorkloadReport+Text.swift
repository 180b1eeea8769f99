extension WorkloadReport {
  /// The name the report's verdict lines give the history in place of a file.
  package var historyName: String { "workload \(name)" }

  /// The report as the command line and a failing test print it: what ran, then the check's verdict and, for a violation, why.
  package var lines: [String] {
    let seconds = PlainNumber.text((elapsed.seconds * 10).rounded() / 10)
    var summary =
      "\(historyName): \(clients) client\(clients == 1 ? "" : "s"), \(seconds) s, "
      + "\(history.operations.count) calls (\(unknownOperations) unknown, \(failedOperations) failed)"
    if !history.faults.isEmpty {
      summary += ", \(history.faults.count) fault\(history.faults.count == 1 ? "" : "s")"
    }
    if let stoppedBy { summary += "; stopped early by \(SignalName.name(of: stoppedBy))" }
    var lines = [summary + "."]
    for fault in history.faults.prefix(Self.listedFaults) { lines.append("  " + Self.text(fault)) }
    if history.faults.count > Self.listedFaults {
      lines.append("  … and \(history.faults.count - Self.listedFaults) more")
    }
    let interruptedBy = verdict.verdict == .unknown ? stoppedBy : nil
    lines +=
      HistoryVerdictText(
        file: historyName, history: history, verdict: verdict, interruptedBy: interruptedBy
      ).lines
    return lines
  }

  private static let listedFaults = 8

  /// One fault as a line: `pause etcd-2 from 1.2 s to 2.2 s`.
  static func text(_ fault: RecordedHistory.Fault) -> String {
    func seconds(_ nanoseconds: Int64) -> String {
      PlainNumber.text((Double(nanoseconds) / 1e8).rounded() / 10) + " s"
    }
    let end = fault.end.map { " to \(seconds($0))" } ?? ", never healed"
    return "\(fault.kind.rawValue) \(fault.target) from \(seconds(fault.start))\(end)"
  }
}
