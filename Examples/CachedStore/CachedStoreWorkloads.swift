import RaceCheck
import Synchronization

/// The example's workloads: ten clients get and put four keys of a running ``CachedStoreService`` over HTTP, checked with the `kv` model.
///
/// `racecheck workload cached-store` passes; `racecheck workload cached-store-racy` finds
/// the stale fill: a read returns a value that a write had already replaced.
public enum CachedStoreWorkloads {
  /// Both variants' workload targets.
  public static let targets: [WorkloadTarget] = [
    target(.correct, name: "cached-store", expectation: .pass),
    target(.racyInvalidation, name: "cached-store-racy", expectation: .fail),
  ]

  /// The workload over a service listening on `port`: four reads for each write, every written value new.
  public static func workload(port: UInt16) -> Workload<CachedStoreClient, KeyValueModel> {
    let keys = Generator.element(of: ["a", "b", "c", "d"])
    // Distinct values make a stale read provable: a value names the one write that stored it.
    let written = Written()
    let values = Generator<String>(draw: { _, _ in written.next() })
    let makeClient: @Sendable () -> CachedStoreClient = {
      CachedStoreClient(port: port, timeout: .seconds(2))
    }
    let spec = Spec("cached-store", make: makeClient, model: KeyValueModel()) {
      Operation("get", keys) { (client: CachedStoreClient, key: String) in
        try await client.get(key)
      }
      Operation("put", keys, values) { (client: CachedStoreClient, key: String, value: String) in
        try await client.put(key, value)
      }
    }
    return Workload(
      spec,
      configuration: Configuration.Workload(
        clients: 10, limit: .operations(5_000), operationTimeout: .seconds(2),
        weights: ["get": 4]))
  }

  private static func target(
    _ variant: CachedStore.Variant, name: String, expectation: Expectation
  ) -> WorkloadTarget {
    WorkloadTarget(
      name,
      summary: "ten clients over HTTP against the \(variant.rawValue) read-through cache",
      expectation: expectation
    ) { request in
      let service = CachedStoreService(variant: variant)
      let port = try service.start()
      defer { service.stop() }
      return try request.run(workload(port: port))
    }
  }

  /// The values written so far, counted, so that each write stores a value of its own.
  private final class Written: Sendable {
    private let count = Mutex(0)

    func next() -> String {
      count.withLock { count in
        count += 1
        return String(count)
      }
    }
  }
}
