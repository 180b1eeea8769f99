import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A client of ``CachedStoreService`` over URLSession: `get` and `put` of string values, each with a timeout.
///
/// ```swift
/// let client = CachedStoreClient(port: port, timeout: .seconds(2))
/// try await client.put("x", "1")
/// let value = try await client.get("x")  // "1"
/// ```
///
/// Requests of one client share a URLSession and its pool of keep-alive connections, and may
/// run concurrently. A failed request throws ``CachedStoreClientError``, and its effect on the
/// service is unknown.
public final class CachedStoreClient: Sendable {
  /// The service's address, such as `http://127.0.0.1:8080`.
  public let baseURL: URL
  /// How long a request waits for its response before it fails as timed out.
  public let timeout: Duration
  private let session: URLSession

  /// Creates a client of the service listening on `host` at `port`.
  public init(port: UInt16, host: String = "127.0.0.1", timeout: Duration = .seconds(5)) {
    baseURL = URL(string: "http://\(host):\(port)")!
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    configuration.timeoutIntervalForRequest = seconds.rounded(.up) + 1
    // A cached response would be a read the service never made: a stale read of the client's.
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpMaximumConnectionsPerHost = 64
    session = URLSession(configuration: configuration)
  }

  deinit {
    session.invalidateAndCancel()
  }

  /// The value of `key`, `""` when it has none.
  public func get(_ key: String) async throws(CachedStoreClientError) -> String {
    var request = URLRequest(url: url(of: key))
    request.httpMethod = "GET"
    let name = "GET \(key)"
    let body = try await send(request, named: name, expecting: 200)
    guard let value = String(validating: body, as: UTF8.self) else {
      throw .invalidBody(request: name)
    }
    return value
  }

  /// Makes `value` the value of `key`.
  public func put(_ key: String, _ value: String) async throws(CachedStoreClientError) {
    var request = URLRequest(url: url(of: key))
    request.httpMethod = "PUT"
    request.httpBody = Data(value.utf8)
    request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
    _ = try await send(request, named: "PUT \(key)", expecting: 204)
  }

  /// The URL of `key`'s resource, the key percent-encoded as one path segment.
  private func url(of key: String) -> URL {
    let unreserved = CharacterSet(
      charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    let segment = key.addingPercentEncoding(withAllowedCharacters: unreserved) ?? key
    return URL(string: "\(baseURL.absoluteString)/keys/\(segment)")!
  }

  /// Sends `request` and returns the body of its response, which must have status `expected`.
  private func send(
    _ request: URLRequest, named name: String, expecting expected: Int
  ) async throws(CachedStoreClientError) -> Data {
    let (data, response) = try await response(to: request, named: name).get()
    guard let response = response as? HTTPURLResponse else {
      throw .connectionFailed(request: name, reason: "the response is not HTTP")
    }
    guard response.statusCode == expected else {
      throw .unexpectedStatus(
        request: name, status: response.statusCode, body: String(decoding: data, as: UTF8.self))
    }
    return data
  }

  /// The response to `request`, or why none came within the timeout.
  ///
  /// The timeout is the client's own: swift-corelibs-foundation's URLSession truncates its
  /// timeout to whole seconds, so half a second fails at once. The session's timeout, a
  /// second or more later, is only a backstop.
  private func response(
    to request: URLRequest, named name: String
  ) async -> Result<(Data, URLResponse), CachedStoreClientError> {
    await withTaskGroup(of: Result<(Data, URLResponse), CachedStoreClientError>.self) { group in
      group.addTask { [session, timeout] in
        do {
          return .success(try await session.data(for: request))
        } catch let error as URLError {
          switch error.code {
          case .timedOut: return .failure(.timedOut(request: name, after: timeout))
          case .cancelled: return .failure(.cancelled(request: name))
          default:
            return .failure(.connectionFailed(request: name, reason: error.localizedDescription))
          }
        } catch is CancellationError {
          return .failure(.cancelled(request: name))
        } catch {
          return .failure(.connectionFailed(request: name, reason: "\(error)"))
        }
      }
      group.addTask { [timeout] in
        do {
          try await Task.sleep(for: timeout)
          return .failure(.timedOut(request: name, after: timeout))
        } catch {
          return .failure(.cancelled(request: name))
        }
      }
      let first = await group.next()!
      group.cancelAll()
      return first
    }
  }
}
