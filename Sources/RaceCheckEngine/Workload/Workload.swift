/// Many clients running a spec's operations against one running subject for a while, checked as one history, as Jepsen checks a database.
///
/// Each client makes one call at a time, drawn from the spec's operations with arguments
/// from their generators, until the limit; a call that throws, or outlives
/// ``Configuration/Workload/operationTimeout``, is recorded as unknown (`info`: it may have taken effect at any
/// point after its call, or never), never dropped, and its client goes on as a new
/// process, as Jepsen's do. The whole run is one ``RecordedHistory``, checked with the
/// spec's built-in model (a `kv` or `dictionary` history one key at a time).
///
/// ```swift
/// let workload = Workload(
///   cacheSpec, configuration: Configuration.Workload(clients: 10, limit: .duration(.seconds(30))))
/// let report = try workload.run()
/// print(report.verdict.verdict)   // linearizable
/// ```
public struct Workload<Subject, Model: HistoryModel>: Sendable {
  /// The subject, made once and shared by every client, the operations and the model.
  public var spec: Spec<Subject, Model>
  /// How many clients, until when, the timeouts, the seed, the faults and the weights.
  public var configuration: Configuration.Workload

  /// Creates a workload over `spec`'s subject, operations and model, run as `configuration` says.
  ///
  /// - Parameters:
  ///   - spec: The subject (made once, shared by the clients), the operations, which must be of the model's vocabulary, and the model.
  ///   - configuration: How many clients, until when, the timeouts, the seed, the faults and the weights.
  public init(
    _ spec: Spec<Subject, Model>, configuration: Configuration.Workload = Configuration.Workload()
  ) {
    self.spec = spec
    self.configuration = configuration
  }
}

/// When a workload's clients stop calling.
public enum WorkloadLimit: Hashable, Sendable {
  /// After this long.
  case duration(Duration)
  /// After this many calls in all.
  case operations(Int)
}
