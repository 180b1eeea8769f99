extension HistoryFile {
  /// The history as a history file: one JSON object, one operation a line so that a diff reads well.
  ///
  /// Each line holds the operation's members as its `Codable` form writes them.
  ///
  /// ```swift
  /// try HistoryFile.encode(history).write(toFile: "run.history.json", atomically: true, encoding: .utf8)
  /// ```
  package static func encode(_ history: RecordedHistory) -> String {
    var lines = ["{", "  \"racecheck\": 1,", "  \"model\": \(Value.quoted(history.model)),"]
    if let initial = history.initial { lines.append("  \"initial\": \(initial),") }
    if let meta = history.meta { lines.append("  \"meta\": \(meta),") }
    if !history.faults.isEmpty {
      lines.append("  \"faults\": [")
      for (index, fault) in history.faults.enumerated() {
        lines.append("    \(fault.json)" + (index + 1 < history.faults.count ? "," : ""))
      }
      lines.append("  ],")
    }
    lines.append("  \"operations\": [")
    for (index, operation) in history.operations.enumerated() {
      let fields = operation.members.map { "\"\($0.key.rawValue)\": \($0.value)" }
      let comma = index + 1 < history.operations.count ? "," : ""
      lines.append("    {" + fields.joined(separator: ", ") + "}" + comma)
    }
    lines += ["  ]", "}"]
    return lines.joined(separator: "\n") + "\n"
  }
}
