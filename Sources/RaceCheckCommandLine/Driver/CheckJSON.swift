import RaceCheckEngine

/// `racecheck check --json`: the verdict of a recorded history, each part's, and the violation's evidence.
///
/// Operations are named by their index in the history's operations, and, where the file
/// has lines, by the line where each starts (the `…Lines` arrays, parallel to the indexes).
struct CheckJSON: Encodable {
  struct Part: Encodable {
    var key: OrNull<String>
    var operations: Int
    var verdict: String
    var seconds: JSONNumber
    /// With `--witness`: the linearization found, as indexes; null unless the part is linearizable.
    var witness: OrNull<[Int]>?
    /// With `--witness`: the line where each operation of the witness starts.
    var witnessLines: OrNull<[OrNull<Int>]>?
  }

  struct Candidate: Encodable {
    var operation: Int
    /// The line where the operation starts; null when it was not read from lines.
    var line: OrNull<Int>
    var returned: OrNull<Value>
    var modelReturns: Value
    var fits: Bool
  }

  struct ImpossibleRead: Encodable {
    var operation: Int
    var line: OrNull<Int>
    var value: Value
  }

  struct StaleRead: Encodable {
    var operation: Int
    var line: OrNull<Int>
    var value: Value
    /// Every operation that may have stored the value and was called before the read returned.
    var producers: [Int]
    var producerLines: [OrNull<Int>]
    /// Whether the initial state held the value.
    var initialHeld: Bool
    /// The completed store that returned before the read was called, after every producer had returned.
    var overwriter: Int
    var overwriterLine: OrNull<Int>
  }

  struct Violation: Encodable {
    var key: OrNull<String>
    /// File indexes of the smallest failing window's operations, in call order.
    var window: [Int]
    var windowLines: [OrNull<Int>]
    /// `smallest`, `budget-exhausted` or `up-to-proof`.
    var windowExtent: String
    /// The operation a proof without search cites, and the value it saw that nothing stored.
    var impossibleRead: OrNull<ImpossibleRead>
    /// The read a proof without search shows stale: the value it saw had been overwritten before it was called.
    var staleRead: OrNull<StaleRead>
    var longestPrefix: [Int]
    var longestPrefixLines: [OrNull<Int>]
    var state: Value
    var candidates: [Candidate]
  }

  var file: String
  var model: String
  var verdict: String
  var operations: Int
  var parts: [Part]
  var violation: OrNull<Violation>
  var seconds: JSONNumber

  /// The document; `witness` adds each part's linearization (`--witness`).
  init(file: String, history: RecordedHistory, _ verdict: HistoryVerdict, witness: Bool = false) {
    let lines = { (indexes: [Int]) in indexes.map { OrNull(history.operations[$0].source.line) } }
    self.file = file
    model = history.model
    self.verdict = verdict.verdict.rawValue
    operations = history.operations.count
    parts = verdict.parts.map {
      Part(
        key: OrNull($0.key), operations: $0.operations, verdict: $0.verdict.rawValue,
        seconds: JSONNumber(seconds: $0.elapsed), witness: witness ? OrNull($0.witness) : nil,
        witnessLines: witness ? OrNull($0.witness.map(lines)) : nil)
    }
    violation = OrNull(
      verdict.violation.map { violation in
        Violation(
          key: OrNull(violation.key), window: violation.window,
          windowLines: lines(violation.window),
          windowExtent: violation.windowExtent.rawValue,
          impossibleRead: OrNull(
            violation.proof.flatMap { proof in
              guard case .impossibleRead(let operation, let value) = proof else { return nil }
              return ImpossibleRead(
                operation: operation, line: OrNull(history.operations[operation].source.line),
                value: value)
            }),
          staleRead: OrNull(
            violation.proof.flatMap { proof in
              guard
                case .staleRead(
                  let operation, let value, let producers, let initialHeld, let overwriter) =
                  proof
              else { return nil }
              return StaleRead(
                operation: operation, line: OrNull(history.operations[operation].source.line),
                value: value, producers: producers, producerLines: lines(producers),
                initialHeld: initialHeld, overwriter: overwriter,
                overwriterLine: OrNull(history.operations[overwriter].source.line))
            }),
          longestPrefix: violation.longestPrefix,
          longestPrefixLines: lines(violation.longestPrefix), state: violation.state,
          candidates: violation.candidates.map {
            Candidate(
              operation: $0.operation, line: OrNull(history.operations[$0.operation].source.line),
              returned: OrNull($0.returned), modelReturns: $0.modelReturns, fits: $0.fits)
          })
      })
    seconds = JSONNumber(seconds: verdict.elapsed)
  }
}
