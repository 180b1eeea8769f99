// The spellings of `explore` before its settings became one `Configuration.Exploration`, kept for one release.

/// Runs a synchronous body under the controlled scheduler with its settings given one by one; use `explore(_:configuration:_:)`.
///
/// - Returns: The report, for tests that want to look at it.
@available(
  *, deprecated,
  message:
    "use explore(configuration: Configuration.Exploration(strategy:schedules:preemptionBound:seed:timeLimit:isolated:))"
)
@_disfavoredOverload
@discardableResult
public func explore(
  _ name: String? = nil,
  strategy: ScheduleSettings.Strategy = .random,
  schedules: Int = ScheduleSettings.exploration.schedules,
  preemptionBound: Int = 2,
  seed: UInt64? = nil,
  timeLimit: Duration? = nil,
  isolated: Bool = true,
  function: String = #function,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: @escaping @Sendable () throws -> Void
) -> CheckReport {
  explore(
    name,
    configuration: Configuration.Exploration(
      strategy: strategy, schedules: schedules, preemptionBound: preemptionBound, seed: seed,
      timeLimit: timeLimit, isolated: isolated),
    function: function, fileID: fileID, filePath: filePath, line: line, column: column, body)
}

/// Runs an `async` body under the controlled scheduler with its settings given one by one; use `explore(_:configuration:_:)`.
///
/// - Returns: The report, for tests that want to look at it.
@available(
  *, deprecated,
  message:
    "use explore(configuration: Configuration.Exploration(strategy:schedules:preemptionBound:seed:timeLimit:isolated:))"
)
@_disfavoredOverload
@discardableResult
public func explore(
  _ name: String? = nil,
  strategy: ScheduleSettings.Strategy = .random,
  schedules: Int = ScheduleSettings.exploration.schedules,
  preemptionBound: Int = 2,
  seed: UInt64? = nil,
  timeLimit: Duration? = nil,
  isolated: Bool = true,
  function: String = #function,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ body: @escaping @Sendable () async throws -> Void
) async -> CheckReport {
  await explore(
    name,
    configuration: Configuration.Exploration(
      strategy: strategy, schedules: schedules, preemptionBound: preemptionBound, seed: seed,
      timeLimit: timeLimit, isolated: isolated),
    function: function, fileID: fileID, filePath: filePath, line: line, column: column, body)
}
