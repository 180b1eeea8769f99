/// Reads a Jepsen or Knossos history in EDN: one op map per line, `:process :type :f :value`, and `:key` where there is one.
///
/// ```
/// {:process 0, :type :invoke, :f :append, :key "0", :value "x 0 0 y"}
/// {:process 0, :type :ok, :f :append, :key "0", :value "x 0 0 y"}
/// ```
///
/// Ops of a process that is not an integer (the `:nemesis`) are not client operations
/// and are skipped. `JepsenEventPairing` gives the meaning of each completion.
public enum JepsenEDNReader {
  /// Reads the history for `model` (such as `"kv"` or `"cas-register"`).
  public static func read(_ bytes: [UInt8], model: String) throws(JepsenImportError)
    -> RecordedHistory
  {
    var pairing = JepsenEventPairing(model: model, failMeaning: .didNotHappen)
    var sawOperation = false
    for (lineNumber, line) in ByteLines(bytes) {
      let (start, end) = (line.lowerBound, line.upperBound)
      var scanner = EDNScanner(bytes[start..<end])
      if scanner.atEnd() { continue }
      let value: EDNValue
      do throws(EDNScanner.SyntaxError) {
        value = try scanner.readValue()
        guard scanner.atEnd() else {
          throw EDNScanner.SyntaxError(
            offset: scanner.offset, problem: "more than one form on the line")
        }
      } catch {
        throw .notEDN(line: lineNumber, column: error.offset - start + 1, problem: error.problem)
      }
      guard case .map(let fields) = value else {
        throw .notAMap(line: lineNumber, got: String(value.text.prefix(40)))
      }
      guard let process = fields[.keyword("process")] else {
        throw .badField(line: lineNumber, field: ":process", expected: "present", got: "nothing")
      }
      guard case .int = process else { continue }
      sawOperation = true
      try pairing.add(
        JepsenEventPairing.Event(
          line: lineNumber, process: process,
          type: try keyword(fields, "type", line: lineNumber),
          function: try keyword(fields, "f", line: lineNumber),
          key: fields[.keyword("key")], value: fields[.keyword("value")] ?? .null))
    }
    guard sawOperation else { throw .noOperations(format: "EDN") }
    return RecordedHistory(model: model, operations: try pairing.finish())
  }

  private static func keyword(_ fields: [EDNValue: EDNValue], _ name: String, line: Int)
    throws(JepsenImportError) -> String
  {
    switch fields[.keyword(name)] {
    case .keyword(let text)?: return text
    case let other?:
      throw .badField(line: line, field: ":" + name, expected: "a keyword", got: other.text)
    case nil:
      throw .badField(line: line, field: ":" + name, expected: "a keyword", got: "nothing")
    }
  }
}
