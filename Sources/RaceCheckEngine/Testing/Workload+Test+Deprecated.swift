// The spellings of `workload` before its settings became one `Configuration.Workload`, kept for one release.

/// Runs a workload from a test with its settings given one by one; use `workload(_:configuration:)`.
///
/// - Returns: The report, or nil when the workload could not run.
@available(
  *, deprecated,
  message:
    "use workload(spec, configuration: Configuration.Workload(clients:limit: .duration(…), operationTimeout:seed:nemesis:))"
)
@discardableResult
public func workload<Subject, Model: HistoryModel>(
  _ spec: Spec<Subject, Model>, clients: Int, duration: Duration,
  operationTimeout: Duration = .seconds(5), seed: UInt64 = 1, nemesis: Nemesis? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> WorkloadReport? {
  workload(
    spec,
    configuration: Configuration.Workload(
      clients: clients, limit: .duration(duration), operationTimeout: operationTimeout,
      seed: seed, nemesis: nemesis),
    fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Runs a workload from an `async` test with its settings given one by one; use `workload(_:configuration:)`.
///
/// - Returns: The report, or nil when the workload could not run.
@available(
  *, deprecated,
  message:
    "use workload(spec, configuration: Configuration.Workload(clients:limit: .duration(…), operationTimeout:seed:nemesis:))"
)
@discardableResult
public func workload<Subject, Model: HistoryModel>(
  _ spec: Spec<Subject, Model>, clients: Int, duration: Duration,
  operationTimeout: Duration = .seconds(5), seed: UInt64 = 1, nemesis: Nemesis? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) async -> WorkloadReport? {
  await workload(
    spec,
    configuration: Configuration.Workload(
      clients: clients, limit: .duration(duration), operationTimeout: operationTimeout,
      seed: seed, nemesis: nemesis),
    fileID: fileID, filePath: filePath, line: line, column: column)
}
