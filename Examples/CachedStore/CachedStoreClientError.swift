/// Why a request of ``CachedStoreClient`` failed; whether a failed request took effect on the service is unknown.
///
/// A `put` that timed out may have been applied before the timeout or after it, or never;
/// a status the client did not expect may come from a server that applied the write and then
/// failed. A workload records every failed operation as indeterminate (Jepsen's `info`),
/// never as one that did not happen.
public enum CachedStoreClientError: Error, Hashable, CustomStringConvertible {
  /// No response came within the client's timeout.
  case timedOut(request: String, after: Duration)
  /// The connection could not be made, or broke before the response came.
  case connectionFailed(request: String, reason: String)
  /// The service answered with a status other than the request's success status.
  case unexpectedStatus(request: String, status: Int, body: String)
  /// The service's response to a `get` has a body that is not UTF-8.
  case invalidBody(request: String)
  /// The task making the request was cancelled.
  case cancelled(request: String)

  public var description: String {
    switch self {
    case .timedOut(let request, let timeout):
      "\(request): no response within \(timeout); whether it took effect is unknown"
    case .connectionFailed(let request, let reason):
      "\(request): connection failed (\(reason)); whether it took effect is unknown"
    case .unexpectedStatus(let request, let status, let body):
      "\(request): status \(status)\(body.isEmpty ? "" : ", '\(body.prefix(200))'")"
        + "; whether it took effect is unknown"
    case .invalidBody(let request): "\(request): the response's body is not UTF-8"
    case .cancelled(let request):
      "\(request): cancelled before its response; whether it took effect is unknown"
    }
  }
}
