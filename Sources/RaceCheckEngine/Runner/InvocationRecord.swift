/// What one invocation of a scenario recorded: each call's interval and result, in history order.
struct InvocationRecord {
  /// Each call's start as the history stores it: an integer, ``MonotonicInstant/nanoseconds``.
  var callTimes: [Int64]
  /// Each call's return, as ``callTimes``.
  var returnTimes: [Int64]
  var results: [Value]

  init(capacity: Int) {
    callTimes = Array(repeating: 0, count: capacity)
    returnTimes = Array(repeating: 0, count: capacity)
    results = Array(repeating: .null, count: capacity)
  }

  /// The history this record describes, for `scenario`; calls that never ran are left out.
  func history(of scenario: Scenario, completed: Int? = nil) -> History {
    var operations: [RecordedHistory.Operation] = []
    var index = 0
    func add(_ call: Scenario.Call, thread: Int) {
      defer { index += 1 }
      if let completed, index >= completed { return }
      operations.append(
        RecordedHistory.Operation(
          thread: thread, call, call: callTimes[index], return: returnTimes[index],
          result: results[index]))
    }
    for call in scenario.initial { add(call, thread: 0) }
    for (thread, column) in scenario.parallel.enumerated() {
      for call in column { add(call, thread: thread) }
    }
    for call in scenario.post { add(call, thread: 0) }
    return History(operations: operations)
  }
}

/// The part of an invocation that decides its linearizability: the results and the real-time order.
///
/// Two invocations with equal outcomes give the checker the same question, so each
/// distinct outcome is checked once. The order is kept as, for each call of the
/// parallel part, how many calls of each other thread had returned before it was made.
struct InvocationOutcome: Hashable {
  var results: [Value]
  var precedence: [UInt8]

  init(_ record: InvocationRecord, columnRanges: [Range<Int>]) {
    results = record.results
    precedence = []
    for (thread, range) in columnRanges.enumerated() {
      for call in range {
        for (other, otherRange) in columnRanges.enumerated() where other != thread {
          var returned: UInt8 = 0
          for earlier in otherRange where record.returnTimes[earlier] < record.callTimes[call] {
            returned &+= 1
          }
          precedence.append(returned)
        }
      }
    }
  }
}
