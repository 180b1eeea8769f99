/// A ``CachedStore`` served over HTTP on 127.0.0.1, for a workload's clients to run operations against.
///
/// `GET /keys/{key}` answers 200 with the value as the body (empty when the key has none);
/// `PUT /keys/{key}` with the value as the body answers 204. ``CachedStoreClient`` speaks it.
///
/// ```swift
/// let service = CachedStoreService(variant: .racyInvalidation)
/// let port = try service.start()
/// defer { service.stop() }
/// ```
public final class CachedStoreService: Sendable {
  /// The store the service serves.
  public let store: CachedStore
  /// The server that serves it.
  package let server: HTTPServer

  /// Creates a stopped service of a new, empty store; ``CachedStore/init(variant:storeLatency:fillDelay:)`` tells the parameters.
  public convenience init(
    variant: CachedStore.Variant, storeLatency: Duration = .microseconds(300),
    fillDelay: Duration = .milliseconds(1)
  ) {
    self.init(
      store: CachedStore(variant: variant, storeLatency: storeLatency, fillDelay: fillDelay))
  }

  /// Creates a stopped service of `store`.
  public init(store: CachedStore) {
    self.store = store
    server = HTTPServer(name: "cachedstore") { request in store.respond(to: request) }
  }

  /// Starts serving on 127.0.0.1 at a port the system picks, and returns the port.
  @discardableResult
  public func start() throws(HTTPServerError) -> UInt16 {
    try server.start()
  }

  /// Stops serving: closes every connection and waits for the server's threads to end.
  ///
  /// A read or write under way finishes first; see ``HTTPServer/stop()``.
  public func stop() {
    server.stop()
  }

  /// The port the service listens on; nil when it is not serving.
  public var port: UInt16? {
    server.port
  }
}
