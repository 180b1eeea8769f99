extension Configuration {
  /// How a workload runs: how many clients, until when, the timeouts, the seed, the faults and the operations' weights.
  ///
  /// The knobs have the names ``Configuration`` and ``Configuration/Exploration`` give the same
  /// ones: `seed`, and timeouts as `Duration`s.
  ///
  /// ```swift
  /// workload(cacheSpec, configuration: Configuration.Workload(clients: 10, limit: .duration(.seconds(30))))
  /// ```
  public struct Workload: Sendable {
    /// How many clients call at once; at least 1.
    public var clients: Int
    /// When the clients stop calling.
    public var limit: WorkloadLimit
    /// How long a call may take before it is recorded as unknown and its client goes on without it.
    public var operationTimeout: Duration
    /// The seed of every client's choice of operations and arguments.
    public var seed: UInt64
    /// The faults injected while the clients run; nil for none.
    public var nemesis: Nemesis?
    /// How long the check of the history may search before it says `unknown`; nil for no limit.
    public var checkTimeout: Duration?
    /// How often each operation is drawn against the others, by name (`["get": 4, "put": 1]`); an operation not named weighs 1.
    public var weights: [String: Int]

    /// Creates a configuration; the defaults are 10 clients for 10 seconds, with no faults.
    ///
    /// - Parameters:
    ///   - clients: How many clients call at once; at least 1.
    ///   - limit: When the clients stop.
    ///   - operationTimeout: How long a call may take before it is recorded as unknown.
    ///   - seed: The seed of the clients' choices.
    ///   - nemesis: The faults to inject while the clients run.
    ///   - checkTimeout: How long the check may search before it says `unknown`.
    ///   - weights: How often each operation is drawn against the others, by name; 1 for one not named.
    public init(
      clients: Int = 10,
      limit: WorkloadLimit = .duration(.seconds(10)),
      operationTimeout: Duration = .seconds(5),
      seed: UInt64 = 1,
      nemesis: Nemesis? = nil,
      checkTimeout: Duration? = nil,
      weights: [String: Int] = [:]
    ) {
      self.clients = clients
      self.limit = limit
      self.operationTimeout = operationTimeout
      self.seed = seed
      self.nemesis = nemesis
      self.checkTimeout = checkTimeout
      self.weights = weights
    }
  }
}
