/// Joins the event form's calls and ends, in the order of their lines, into operations; a call left without an end is `info`.
///
/// Every rule of the format's processes is checked as the lines come: an id names one call
/// and ends at most once, after it; a process calls only when its previous call has ended,
/// and later than that call returned; a process whose call ended `info` calls nothing more.
/// Operations keep the order of their calls' lines, and cite the lines of their call and end.
///
/// ```swift
/// var pairing = HistoryEventPairing(citesLines: true)
/// try pairing.add(call, line: 2)
/// try pairing.add(end, line: 3)
/// let operations = pairing.finish()
/// ```
package struct HistoryEventPairing {
  /// What a process is doing, as of the lines read so far.
  private enum ProcessState {
    /// It has a call running: its id and line.
    case running(id: Int, line: Int)
    /// Its last call returned at `time`, on `line`.
    case returned(time: Int64, line: Int)
    /// Its last call ended `info` on `line`: it calls nothing more.
    case retired(line: Int)
  }

  /// Where a call's operation stands, by id.
  private enum CallState {
    /// Still running: the operation's index and the call's line.
    case running(index: Int, line: Int)
    /// Ended on `endLine`; its call was on `callLine`.
    case ended(callLine: Int, endLine: Int)
  }

  /// Whether operations cite their lines; a recorder's in-memory history has none.
  private let citesLines: Bool
  private var calls: [Int: CallState] = [:]
  private var processes: [Value: ProcessState] = [:]
  private(set) var operations: [RecordedHistory.Operation] = []

  /// Creates an empty pairing; `citesLines` says whether the events are lines of a file.
  package init(citesLines: Bool) {
    self.citesLines = citesLines
  }

  /// Adds the event read on `line` (its ordinal, for events not read from a file).
  package mutating func add(_ event: HistoryEvent, line: Int)
    throws(HistoryFileError.EventProblem)
  {
    switch event.kind {
    case .call(let process, let name, let arguments, let time):
      switch calls[event.id] {
      case .running(_, let first)?, .ended(let first, _)?:
        throw .duplicateID(id: event.id, firstLine: first)
      case nil: break
      }
      switch processes[process] {
      case .running(let id, let runningLine)?:
        throw .callWhileRunning(process: Self.name(process), id: id, line: runningLine)
      case .retired(let infoLine)?:
        throw .callAfterInfo(process: Self.name(process), infoLine: infoLine)
      case .returned(let previous, let returnLine)? where time <= previous:
        throw .callBeforeReturn(
          process: Self.name(process), call: time, previousReturn: previous,
          returnLine: returnLine)
      default: break
      }
      processes[process] = .running(id: event.id, line: line)
      calls[event.id] = .running(index: operations.count, line: line)
      operations.append(
        RecordedHistory.Operation(
          process: process, name: name, arguments: arguments, call: time, return: nil,
          status: .info, source: citesLines ? .event(invocation: line, completion: nil) : .unknown)
      )
    case .end(let status, let time, let result):
      guard case .running(let index, let callLine)? = calls[event.id] else {
        if case .ended(_, let endLine)? = calls[event.id] {
          throw .endedTwice(id: event.id, endLine: endLine)
        }
        throw .endWithoutCall(id: event.id)
      }
      let process = operations[index].process
      if let time {
        guard status != .info else { throw .returnWithInfo }
        let call = operations[index].call
        guard time >= call else {
          throw .returnBeforeCall(call: call, return: time, callLine: callLine)
        }
        processes[process] = .returned(time: time, line: line)
      } else {
        guard status == .info else { throw .returnWithInfo }
        processes[process] = .retired(line: line)
      }
      calls[event.id] = .ended(callLine: callLine, endLine: line)
      operations[index].return = time
      operations[index].result = result
      operations[index].status = status
      if citesLines { operations[index].source = .event(invocation: callLine, completion: line) }
    }
  }

  /// The operations, in the order of their calls; a call that has not ended is `info`, as if the recording stopped here.
  package func finish() -> [RecordedHistory.Operation] {
    operations
  }

  /// A process as messages name it: a number bare, a string quoted.
  private static func name(_ process: Value) -> String {
    process.stringValue.map(Value.quoted) ?? process.description
  }
}
