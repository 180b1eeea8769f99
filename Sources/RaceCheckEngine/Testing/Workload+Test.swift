/// Runs a workload from a test: clients call `spec`'s subject as `configuration` says, and a history that no order explains fails the calling test at this line with the report.
///
/// A call that throws or outlives the configuration's `operationTimeout` is recorded as
/// unknown, so a service that is slow or down is never reported as wrong by itself. A spec
/// or setting that cannot make a workload fails the test too.
///
/// ```swift
/// @Test func cacheIsLinearizable() throws {
///   let server = try CacheServer.start()
///   defer { server.stop() }
///   workload(cacheSpec(port: server.port), configuration: Configuration.Workload(clients: 10))
/// }
/// ```
///
/// - Returns: The report, or nil when the workload could not run.
@discardableResult
public func workload<Subject, Model: HistoryModel>(
  _ spec: Spec<Subject, Model>, configuration: Configuration.Workload = Configuration.Workload(),
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> WorkloadReport? {
  check(
    Workload(spec, configuration: configuration),
    fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Runs a workload from a test; a history that no order explains, or an undecided check, fails the calling test at this line with the report.
///
/// ```swift
/// let nemesis = Nemesis.pauses(of: targets, every: .seconds(2), lasting: .seconds(1))
/// check(Workload(spec, configuration: Configuration.Workload(limit: .operations(20_000), nemesis: nemesis)))
/// ```
///
/// - Returns: The report, or nil when the workload could not run.
@discardableResult
public func check<Subject, Model: HistoryModel>(
  _ workload: Workload<Subject, Model>, fileID: String = #fileID,
  filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> WorkloadReport? {
  func fail(_ message: String) {
    TestFailureRecorder.record(
      message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
  let report: WorkloadReport
  do {
    report = try workload.run()
  } catch {
    fail("\(error)")
    return nil
  }
  let text = report.lines.joined(separator: "\n")
  switch report.verdict.verdict {
  case .linearizable: print(text)
  case .notLinearizable, .unknown: fail(text)
  }
  return report
}

/// Runs a workload from an `async` test, on a thread of its own so that no thread of Swift's cooperative pool waits for it; a violation fails the calling test at this line.
///
/// ```swift
/// @Test func etcdIsLinearizable() async throws {
///   await workload(etcdSpec, configuration: Configuration.Workload(limit: .duration(.seconds(30))))
/// }
/// ```
///
/// - Returns: The report, or nil when the workload could not run.
@discardableResult
public func workload<Subject, Model: HistoryModel>(
  _ spec: Spec<Subject, Model>, configuration: Configuration.Workload = Configuration.Workload(),
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) async -> WorkloadReport? {
  await check(
    Workload(spec, configuration: configuration),
    fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Runs a workload from an `async` test, on a thread of its own; a violation or an undecided check fails the calling test at this line.
///
/// - Returns: The report, or nil when the workload could not run.
@discardableResult
public func check<Subject, Model: HistoryModel>(
  _ workload: Workload<Subject, Model>, fileID: String = #fileID,
  filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async -> WorkloadReport? {
  let location = SendableSourceLocation(
    fileID: fileID, filePath: filePath, line: line, column: column)
  return await TestCheck.onThreadOfItsOwn {
    check(
      workload, fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column)
  }
}

/// A call site handed to the thread that runs a workload for an `async` test.
private struct SendableSourceLocation: Sendable {
  var fileID: String
  var filePath: StaticString
  var line: UInt
  var column: UInt
}
