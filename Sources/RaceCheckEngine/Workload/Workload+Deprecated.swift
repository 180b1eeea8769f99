// The spellings of `Workload` before its settings became one `Configuration.Workload`, kept for one release.

extension Workload {
  /// Creates a workload with its settings given one by one; use `Workload(_:configuration:)`.
  @available(
    *, deprecated,
    message:
      "use Workload(spec, configuration: Configuration.Workload(clients:limit:operationTimeout:seed:nemesis:checkTimeout:weights:))"
  )
  public init(
    _ spec: Spec<Subject, Model>, clients: Int, limit: WorkloadLimit,
    operationTimeout: Duration = .seconds(5), seed: UInt64 = 1, nemesis: Nemesis? = nil,
    checkTimeout: Duration? = nil, weights: [String: Int] = [:]
  ) {
    self.init(
      spec,
      configuration: Configuration.Workload(
        clients: clients, limit: limit, operationTimeout: operationTimeout, seed: seed,
        nemesis: nemesis, checkTimeout: checkTimeout, weights: weights))
  }

  /// How many clients call at once; use `configuration.clients`.
  @available(*, deprecated, message: "use configuration.clients")
  public var clients: Int {
    get { configuration.clients }
    set { configuration.clients = newValue }
  }

  /// When the clients stop calling; use `configuration.limit`.
  @available(*, deprecated, message: "use configuration.limit")
  public var limit: WorkloadLimit {
    get { configuration.limit }
    set { configuration.limit = newValue }
  }

  /// How long a call may take before it is recorded as unknown; use `configuration.operationTimeout`.
  @available(*, deprecated, message: "use configuration.operationTimeout")
  public var operationTimeout: Duration {
    get { configuration.operationTimeout }
    set { configuration.operationTimeout = newValue }
  }

  /// The seed of every client's choice of operations and arguments; use `configuration.seed`.
  @available(*, deprecated, message: "use configuration.seed")
  public var seed: UInt64 {
    get { configuration.seed }
    set { configuration.seed = newValue }
  }

  /// The faults injected while the clients run; use `configuration.nemesis`.
  @available(*, deprecated, message: "use configuration.nemesis")
  public var nemesis: Nemesis? {
    get { configuration.nemesis }
    set { configuration.nemesis = newValue }
  }

  /// How long the check of the history may search; use `configuration.checkTimeout`.
  @available(*, deprecated, message: "use configuration.checkTimeout")
  public var checkTimeout: Duration? {
    get { configuration.checkTimeout }
    set { configuration.checkTimeout = newValue }
  }

  /// How often each operation is drawn against the others; use `configuration.weights`.
  @available(*, deprecated, message: "use configuration.weights")
  public var weights: [String: Int] {
    get { configuration.weights }
    set { configuration.weights = newValue }
  }
}

extension WorkloadTarget {
  /// Creates a target whose expectation is a bare verdict; use `WorkloadTarget(_:summary:expectation:body:)` with an ``Expectation``.
  @available(*, deprecated, message: "use an Expectation: expectation: .pass or .fail")
  @_disfavoredOverload
  public init(
    _ name: String, summary: String = "", expectation: Verdict?,
    body: @escaping @Sendable (WorkloadTarget.Request) throws -> WorkloadReport
  ) {
    self.init(
      name, summary: summary,
      expectation: expectation.map { Expectation(verdict: $0, diagnosis: nil) },
      body: body)
  }
}
