/// Runs a synchronous body under the controlled scheduler, once per schedule, and fails the calling test at this line with the failing schedule, shrunk.
///
/// Everything the body starts through a primitive the scheduler controls (queue blocks,
/// groups, semaphores, locks, conditions, stored properties of the objects it makes) runs
/// on controlled threads, so each schedule is one interleaving the scheduler chose, and the
/// seed fixes them all. A schedule fails on an expectation that fails in the body or in
/// anything it started (`#expect`, `#require`, `XCTAssert…`), an error the body throws, a
/// crash or trap, a deadlock, a data race, or a schedule that never ends. The report gives
/// that schedule's interleaving, shrunk to the fewest preemptions that still fail, with the
/// seed, a replay line and a repro file. The replay line sets `RACECHECK_SCHEDULE` to that
/// schedule, which `explore` then runs alone, once: a failure is reported as usual, and a
/// schedule that passes or that the code leaves is inconclusive, never a pass. The body runs
/// again for every schedule: make the state it checks inside it.
///
/// ```swift
/// @Test func fanOutKeepsEveryResult() {
///   explore {
///     let results = Results()
///     let group = DispatchGroup()
///     for index in 0..<2 {
///       DispatchQueue.global().async(group: group) { results.append(index) }
///     }
///     group.wait()
///     #expect(results.count == 2)
///   }
/// }
/// ```
///
/// Its settings are one ``Configuration/Exploration``: `explore(configuration:
/// Configuration.Exploration(strategy: .dpor)) { … }` runs one schedule of every class of
/// equivalent interleavings, and its pass is a proof for the body.
///
/// - Parameters:
///   - name: The name reports and repro files use; the call's file and line when nil.
///   - configuration: The strategy, the budget, the seed and the isolation.
///   - function: The calling test's function, which names the test an isolated child runs.
///   - fileID: The call's file, where a failure is recorded.
///   - filePath: The call's file path, where XCTest records a failure.
///   - line: The call's line, where a failure is recorded.
///   - column: The call's column, where a failure is recorded.
///   - body: The code to explore.
/// - Returns: The report, for tests that want to look at it.
@discardableResult
public func explore(
  _ name: String? = nil,
  configuration: Configuration.Exploration = Configuration.Exploration(),
  function: String = #function,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: @escaping @Sendable () throws -> Void
) -> CheckReport {
  let exploration = Exploration(name ?? "\(fileID):\(line)", body)
  return check(
    exploration, configuration: configuration.checkConfiguration, function: function,
    fileID: fileID,
    filePath: filePath, line: line, column: column)
}

/// Runs an `async` body under the controlled scheduler, once per schedule, and fails the calling test at this line with the failing schedule, shrunk.
///
/// The body runs in a task whose jobs, and those of the tasks it starts, the scheduler
/// runs on its controlled threads; otherwise as the synchronous `explore { … }`.
///
/// ```swift
/// @Test func loadFinishesBeforeTheAssertion() async {
///   await explore {
///     let model = await ViewModel()
///     Task { await model.load() }
///     #expect(await model.items.isEmpty == false)
///   }
/// }
/// ```
///
/// - Returns: The report, for tests that want to look at it.
@discardableResult
public func explore(
  _ name: String? = nil,
  configuration: Configuration.Exploration = Configuration.Exploration(),
  function: String = #function,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: @escaping @Sendable () async throws -> Void
) async -> CheckReport {
  let exploration = Exploration(name ?? "\(fileID):\(line)", body)
  return await check(
    exploration, configuration: configuration.checkConfiguration, function: function,
    fileID: fileID,
    filePath: filePath, line: line, column: column)
}
