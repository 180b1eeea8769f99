/// A workload the command line runs by name (`racecheck workload NAME`): it starts what the workload needs, runs it as asked, and stops it again.
///
/// The body receives the command line's request and hands it the workload with its
/// defaults; the request applies `--clients`, `--time`, `--operations`, `--timeout` and
/// `--seed`, runs it, and reports progress and interrupts. Whatever the body started
/// must be stopped before it returns, whether the run passed, failed or threw.
///
/// ```swift
/// WorkloadTarget("cache", summary: "the cached store over HTTP", expectation: .pass) { request in
///   let server = try CacheServer.start()
///   defer { server.stop() }
///   return try request.run(Workload(cacheSpec(port: server.port)))
/// }
/// ```
public struct WorkloadTarget: Sendable {
  /// The name `racecheck workload` takes.
  public var name: String
  /// A line for `racecheck list`.
  public var summary: String
  /// Whether the history must be linearizable (`.pass`) or not (`.fail`); nil when nothing is expected.
  public var expectation: Expectation?
  /// Starts what the workload needs, runs it through the request, and stops it.
  let body: @Sendable (Request) throws -> WorkloadReport

  /// Creates a target named `name` whose `body` runs its workload through the request it is given.
  public init(
    _ name: String, summary: String = "", expectation: Expectation? = nil,
    body: @escaping @Sendable (WorkloadTarget.Request) throws -> WorkloadReport
  ) {
    self.name = name
    self.summary = summary
    self.expectation = expectation
    self.body = body
  }

  /// Runs the target as `request` asks.
  package func run(_ request: WorkloadTarget.Request) throws -> WorkloadReport {
    try body(request)
  }
}

extension WorkloadTarget {
  /// What the command line asked of a workload: settings that replace the workload's own, and where its progress and interrupts go.
  public struct Request: Sendable {
    /// The name the report gives the workload, replacing its spec's; nil to keep it.
    package var name: String?
    /// The number of clients, replacing the workload's; nil to keep it.
    package var clients: Int?
    /// The limit, replacing the workload's; nil to keep it.
    package var limit: WorkloadLimit?
    /// The operation timeout, replacing the workload's; nil to keep it.
    package var operationTimeout: Duration?
    /// The seed, replacing the workload's; nil to keep it.
    package var seed: UInt64?
    /// Whether the workload's nemesis runs.
    package var injectsFaults = true
    /// Stops the clients when it fires.
    package var interruption: Interruption?
    /// Told how far the run got.
    package var progress: (@Sendable (WorkloadProgress) -> Void)?
    /// Given the history once the clients have stopped, before it is checked, so that a check cut short loses none of it.
    package var recorded: (@Sendable (RecordedHistory) -> Void)?

    /// A request that keeps every setting of the workload.
    package init() {}

    /// Runs `workload` with the request's settings in place of its own, and checks its history.
    public func run<Subject, Model: HistoryModel>(_ workload: Workload<Subject, Model>)
      throws(WorkloadError) -> WorkloadReport
    {
      var workload = workload
      if let name { workload.spec.name = name }
      if let clients { workload.configuration.clients = clients }
      if let limit { workload.configuration.limit = limit }
      if let operationTimeout { workload.configuration.operationTimeout = operationTimeout }
      if let seed { workload.configuration.seed = seed }
      if !injectsFaults { workload.configuration.nemesis = nil }
      return try workload.run(interruption: interruption, progress: progress, recorded: recorded)
    }
  }
}
