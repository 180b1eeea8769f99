/// Reads the operations of a Jepsen log: `INFO jepsen.util - <process> <type> <f> <value>`, fields separated by tabs or spaces.
///
/// ```
/// INFO  jepsen.util - 2	:invoke	:cas	[2 4]
/// INFO  jepsen.util - 0	:fail	:cas	[1 4]
/// ```
///
/// Other lines are skipped. `:fail` has the meaning of the etcd logs (see `JepsenEventPairing`).
package enum JepsenLogReader {
  /// Reads the history for `model` (the etcd logs are `"cas-register"`).
  package static func read(_ bytes: [UInt8], model: String) throws(HistoryInputError.JepsenProblem)
    -> RecordedHistory
  {
    let marker = Array("jepsen.util - ".utf8)
    var pairing = JepsenEventPairing(model: model, failMeaning: .etcdLog)
    var sawOperation = false
    for (lineNumber, line) in ByteLines(bytes) {
      let (start, end) = (line.lowerBound, line.upperBound)
      guard let found = firstIndex(of: marker, in: bytes, from: start, to: end) else { continue }
      var scanner = EDNScanner(bytes[(found + marker.count)..<end])
      var fields: [EDNValue] = []
      do {
        while fields.count < 3 && !scanner.atEnd() { fields.append(try scanner.readValue()) }
        guard fields.count == 3, !scanner.atEnd() else {
          throw HistoryInputError.JepsenProblem.malformedLogLine(line: lineNumber)
        }
        fields.append(try scanner.readValue())
        // Anything after the value (there should be nothing) is ignored, as Jepsen's own parsers do.
      } catch let error as EDNScanner.SyntaxError {
        throw .notEDN(line: lineNumber, column: error.offset - start + 1, problem: error.problem)
      } catch let error as HistoryInputError.JepsenProblem {
        throw error
      } catch {
        preconditionFailure("unexpected error \(error)")
      }
      guard case .int(let process) = fields[0] else {
        throw .badField(
          line: lineNumber, field: "the process", expected: "an integer", got: fields[0].text)
      }
      guard case .keyword(let type) = fields[1] else {
        throw .badField(
          line: lineNumber, field: "the type", expected: "a keyword", got: fields[1].text)
      }
      guard case .keyword(let function) = fields[2] else {
        throw .badField(
          line: lineNumber, field: "the function", expected: "a keyword", got: fields[2].text)
      }
      sawOperation = true
      try pairing.add(
        JepsenEventPairing.Event(
          line: lineNumber, process: process, type: type, function: function, key: nil,
          value: fields[3]))
    }
    guard sawOperation else { throw .noOperations(format: "jepsen.util log") }
    return RecordedHistory(model: model, operations: try pairing.finish())
  }

  private static func firstIndex(
    of marker: [UInt8], in bytes: [UInt8], from start: Int, to end: Int
  )
    -> Int?
  {
    guard end - start >= marker.count else { return nil }
    var index = start
    while index + marker.count <= end {
      if bytes[index] == marker[0]
        && (1..<marker.count).allSatisfy({ bytes[index + $0] == marker[$0] })
      {
        return index
      }
      index += 1
    }
    return nil
  }
}
