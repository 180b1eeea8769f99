extension HistoryFile {
  /// The history as a history file: one JSON object, one operation a line so that a diff reads well.
  ///
  /// ```swift
  /// try HistoryFile.encode(history).write(toFile: "run.history.json", atomically: true, encoding: .utf8)
  /// ```
  package static func encode(_ history: RecordedHistory) -> String {
    var lines = ["{", "  \"racecheck\": 1,", "  \"model\": \(Value.quoted(history.model)),"]
    if let initial = history.initial { lines.append("  \"initial\": \(initial),") }
    if let meta = history.meta { lines.append("  \"meta\": \(meta),") }
    lines.append("  \"operations\": [")
    for (index, operation) in history.operations.enumerated() {
      var fields = [
        "\"process\": \(operation.process)", "\"op\": \(Value.quoted(operation.name))",
        "\"args\": \(Value.list(operation.arguments))", "\"call\": \(operation.call)",
      ]
      if let end = operation.return { fields.append("\"return\": \(end)") }
      if !operation.result.isNull { fields.append("\"result\": \(operation.result)") }
      if operation.status != .ok { fields.append("\"status\": \"\(operation.status.rawValue)\"") }
      let comma = index + 1 < history.operations.count ? "," : ""
      lines.append("    {" + fields.joined(separator: ", ") + "}" + comma)
    }
    lines += ["  ]", "}"]
    return lines.joined(separator: "\n") + "\n"
  }
}
