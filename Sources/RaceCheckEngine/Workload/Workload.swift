/// Many clients running a spec's operations against one running subject for a while, checked as one history, as Jepsen checks a database.
///
/// Each client makes one call at a time, drawn from the spec's operations with arguments
/// from their generators, until the limit; a call that throws, or outlives
/// ``operationTimeout``, is recorded as unknown (`info`: it may have taken effect at any
/// point after its call, or never), never dropped, and its client goes on as a new
/// process, as Jepsen's do. The whole run is one ``RecordedHistory``, checked with the
/// spec's built-in model (a `kv` or `dictionary` history one key at a time).
///
/// ```swift
/// let workload = Workload(cacheSpec, clients: 10, limit: .duration(.seconds(30)))
/// let report = try workload.run()
/// print(report.verdict.verdict)   // linearizable
/// ```
public struct Workload<Subject, Model: HistoryModel>: Sendable {
  /// The subject, made once and shared by every client, the operations and the model.
  public var spec: Spec<Subject, Model>
  /// How many clients call at once.
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

  /// Creates a workload of `clients` clients over `spec`'s subject, operations and model.
  ///
  /// - Parameters:
  ///   - spec: The subject (made once, shared by the clients), the operations, which must be of the model's vocabulary, and the model.
  ///   - clients: How many clients call at once; at least 1.
  ///   - limit: When the clients stop.
  ///   - operationTimeout: How long a call may take before it is recorded as unknown.
  ///   - seed: The seed of the clients' choices.
  ///   - nemesis: The faults to inject while the clients run.
  ///   - checkTimeout: How long the check may search before it says `unknown`.
  ///   - weights: How often each operation is drawn against the others, by name; 1 for one not named.
  public init(
    _ spec: Spec<Subject, Model>, clients: Int, limit: WorkloadLimit,
    operationTimeout: Duration = .seconds(5), seed: UInt64 = 1, nemesis: Nemesis? = nil,
    checkTimeout: Duration? = nil, weights: [String: Int] = [:]
  ) {
    self.spec = spec
    self.clients = clients
    self.limit = limit
    self.operationTimeout = operationTimeout
    self.seed = seed
    self.nemesis = nemesis
    self.checkTimeout = checkTimeout
    self.weights = weights
  }
}

/// When a workload's clients stop calling.
public enum WorkloadLimit: Hashable, Sendable {
  /// After this long.
  case duration(Duration)
  /// After this many calls in all.
  case operations(Int)
}
