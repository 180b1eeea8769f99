/// Reads a Jepsen or Knossos history in EDN: op maps, `:process :type :f :value` and `:key` where there is one.
///
/// Two layouts: Jepsen's, one op map per line, and Knossos's, one vector (or list) of op
/// maps over any number of lines, with `;` comments anywhere:
///
/// ```
/// {:process 0, :type :invoke, :f :append, :key "0", :value "x 0 0 y"}
/// {:process 0, :type :ok, :f :append, :key "0", :value "x 0 0 y"}
///
/// ; Knossos
/// [{:process 4, :type :invoke, :f :write, :value 2}
///  {:process 4, :type :ok, :f :write, :value 2}]
/// ```
///
/// Ops of a process that is not an integer (the `:nemesis`) are not client operations
/// and are skipped: a file of them alone is an empty history. `JepsenEventPairing` gives the meaning of each completion; errors name
/// the line (and column) where the op starts, in either layout.
package enum JepsenEDNReader {
  /// Reads the history for `model` (such as `"kv"` or `"cas-register"`).
  package static func read(_ bytes: [UInt8], model: String) throws(HistoryInputError.JepsenProblem)
    -> RecordedHistory
  {
    var pairing = JepsenEventPairing(model: model, failMeaning: .didNotHappen)
    var sawOpMap = false
    var whole = EDNScanner(bytes[...])
    if whole.startsWithSequence() {
      let lines = LineStarts(bytes)
      let elements: [(offset: Int, form: EDNForm)]
      do throws(EDNScanner.SyntaxError) {
        elements = try whole.readSequenceElements()
        guard whole.atEnd() else {
          throw EDNScanner.SyntaxError(
            offset: whole.offset, problem: "more forms after the history's vector")
        }
      } catch {
        let (line, column) = lines.position(of: error.offset)
        throw .notEDN(line: line, column: column, problem: error.problem)
      }
      for element in elements {
        try add(element.form, line: lines.position(of: element.offset).line, to: &pairing)
        sawOpMap = true
      }
    } else {
      // An operation takes two lines, its invocation and its completion.
      pairing.reserveCapacity(ByteLines.count(in: bytes) / 2 + 1)
      for (lineNumber, line) in ByteLines(bytes) {
        let (start, end) = (line.lowerBound, line.upperBound)
        var scanner = EDNScanner(bytes[start..<end])
        if scanner.atEnd() { continue }
        let form: EDNForm
        do throws(EDNScanner.SyntaxError) {
          form = try scanner.readForm()
          guard scanner.atEnd() else {
            throw EDNScanner.SyntaxError(
              offset: scanner.offset, problem: "more than one form on the line")
          }
        } catch {
          throw .notEDN(line: lineNumber, column: error.offset - start + 1, problem: error.problem)
        }
        try add(consume form, line: lineNumber, to: &pairing)
        sawOpMap = true
      }
    }
    guard sawOpMap else { throw .noOperations(format: "EDN") }
    return RecordedHistory(model: model, operations: try pairing.finish())
  }

  /// Adds the op map `form`, which starts on `line`, unless it is no client's operation.
  private static func add(
    _ form: consuming EDNForm, line: Int, to pairing: inout JepsenEventPairing
  )
    throws(HistoryInputError.JepsenProblem)
  {
    let fields: EDNOpMap
    // Moved, not copied: an op map is five values, and a history millions of them.
    switch consume form {
    case .opMap(let opMap): fields = opMap
    case .other(let value): throw .notAMap(line: line, got: String(value.text.prefix(40)))
    }
    guard let process = fields.process else {
      throw .badField(line: line, field: ":process", expected: "present", got: "nothing")
    }
    guard case .int(let number) = process else { return }
    try pairing.add(
      JepsenEventPairing.Event(
        line: line, process: number,
        type: try keyword(fields.type, "type", line: line),
        function: try keyword(fields.function, "f", line: line),
        key: fields.key, value: fields.value ?? .null))
  }

  /// Where each line of a file starts, to turn a byte offset into a line and a column.
  private struct LineStarts {
    private var starts: [Int] = [0]

    init(_ bytes: [UInt8]) {
      for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
        starts.append(offset + 1)
      }
    }

    /// The 1-based line and column of `offset`.
    func position(of offset: Int) -> (line: Int, column: Int) {
      // The last line start at or before the offset, by binary search.
      var low = 0
      var high = starts.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if starts[middle] <= offset { low = middle } else { high = middle - 1 }
      }
      return (low + 1, offset - starts[low] + 1)
    }
  }

  /// The name of the keyword `field` holds; an error naming the op map's field `name` when it holds something else.
  private static func keyword(_ field: EDNValue?, _ name: String, line: Int)
    throws(HistoryInputError.JepsenProblem) -> String
  {
    switch field {
    case .keyword(let text)?: return text
    case let other?:
      throw .badField(line: line, field: ":" + name, expected: "a keyword", got: other.text)
    case nil:
      throw .badField(line: line, field: ":" + name, expected: "a keyword", got: "nothing")
    }
  }
}
