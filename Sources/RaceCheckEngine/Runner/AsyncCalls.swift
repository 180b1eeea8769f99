import Synchronization

/// The `async` calls of one run: which call each task makes and, under an ``AsyncProbe``, the hops their tasks made and the gate that runs one operation alone.
///
/// A runner binds ``current`` around each call it makes; the operation reads it on the
/// runner's thread, before its task starts. The hops kept are those of each call's latest
/// run, so once a run stops at a failing invocation they are that invocation's.
final class AsyncCalls: Sendable {
  /// One call of the run, as its task sees it.
  struct Call: Sendable {
    let calls: AsyncCalls
    /// The call's index in the history.
    let index: Int
  }

  /// The call the current thread is making, bound by the runner for the call's duration.
  @TaskLocal static var current: Call?

  /// What the run records and how it runs its calls; nil for a run that only names its tasks.
  let probe: AsyncProbe?
  private let gate = ExclusiveGate()
  private let recorded = Mutex<(next: Int, hops: [Int: [RawHop]])>((0, [:]))

  /// A hop as recorded, with its continuation's address in this process.
  private struct RawHop {
    var sequence: Int
    var leftExecutor: UInt?
    var continuations: [UInt]
  }

  init(_ probe: AsyncProbe?) {
    self.probe = probe
  }

  /// Runs `perform` as call `index` of the run.
  func making<Result>(call index: Int, _ perform: () throws -> Result) rethrows -> Result {
    begins(call: index)
    return try Self.$current.withValue(Call(calls: self, index: index), operation: perform)
  }

  /// Starts call `index`'s run: under a probe, the hops of its earlier runs are forgotten.
  func begins(call index: Int) {
    if probe != nil { recorded.withLock { $0.hops[index] = [] } }
  }

  /// Whether the run records its tasks' hops.
  var recordsHops: Bool { probe != nil }

  /// Whether some operation's calls run alone, so that every call goes through the gate.
  var gates: Bool { probe?.exclusiveOperation != nil }

  /// Waits until a call of `operation` may run.
  func enter(_ operation: String) async {
    await gate.enter(exclusive: probe?.exclusiveOperation == operation)
  }

  /// Lets the calls waiting for a call of `operation` run.
  func leave(_ operation: String) { gate.leave(exclusive: probe?.exclusiveOperation == operation) }

  /// Records that call `index`'s task came to racecheck's executor, leaving `leftExecutor`, inside the awaits whose `continuations` are given innermost first.
  func recordHop(call index: Int, leftExecutor: UInt?, continuations: [UInt]) {
    recorded.withLock { recorded in
      recorded.hops[index, default: []].append(
        RawHop(sequence: recorded.next, leftExecutor: leftExecutor, continuations: continuations))
      recorded.next += 1
    }
  }

  /// Every call's hops of its latest run, in order, with their addresses placed in their images.
  func hops() -> [ExecutorHop] {
    let recorded = recorded.withLock { $0.hops }
    var placed: [UInt: CodeAddress] = [:]
    func place(_ address: UInt) -> CodeAddress? {
      if let known = placed[address] { return known }
      let found = CodeAddress(placing: address)
      placed[address] = found
      return found
    }
    return recorded.flatMap { index, hops in
      hops.map { hop in
        ExecutorHop(
          call: index, sequence: hop.sequence, leftExecutor: hop.leftExecutor,
          continuations: hop.continuations.compactMap(place))
      }
    }.sorted { $0.sequence < $1.sequence }
  }
}
