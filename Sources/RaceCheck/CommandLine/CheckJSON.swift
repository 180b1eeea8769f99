/// `racecheck check --json`: the verdict of a recorded history, each part's, and the violation's evidence.
struct CheckJSON: Encodable {
  struct Part: Encodable {
    var key: OrNull<String>
    var operations: Int
    var verdict: String
    var seconds: JSONNumber
  }

  struct Candidate: Encodable {
    var operation: Int
    var returned: OrNull<Value>
    var modelReturns: Value
    var fits: Bool
  }

  struct ImpossibleRead: Encodable {
    var operation: Int
    var value: Value
  }

  struct Violation: Encodable {
    var key: OrNull<String>
    /// File indexes of the smallest failing window's operations, in call order.
    var window: [Int]
    /// `smallest`, `budget-exhausted` or `up-to-proof`.
    var windowExtent: String
    /// The operation a proof without search cites, and the value it saw that nothing stored.
    var impossibleRead: OrNull<ImpossibleRead>
    var longestPrefix: [Int]
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

  init(file: String, history: RecordedHistory, _ verdict: HistoryVerdict) {
    self.file = file
    model = history.model
    self.verdict = verdict.verdict.rawValue
    operations = history.operations.count
    parts = verdict.parts.map {
      Part(
        key: OrNull($0.key), operations: $0.operations, verdict: $0.verdict.rawValue,
        seconds: JSONNumber($0.seconds))
    }
    violation = OrNull(
      verdict.violation.map { violation in
        Violation(
          key: OrNull(violation.key), window: violation.window,
          windowExtent: violation.windowExtent.rawValue,
          impossibleRead: OrNull(
            violation.proof.map { proof in
              switch proof {
              case .impossibleRead(let operation, let value):
                ImpossibleRead(operation: operation, value: value)
              }
            }),
          longestPrefix: violation.longestPrefix, state: violation.state,
          candidates: violation.candidates.map {
            Candidate(
              operation: $0.operation, returned: OrNull($0.returned), modelReturns: $0.modelReturns,
              fits: $0.fits)
          })
      })
    seconds = JSONNumber(verdict.seconds)
  }
}
