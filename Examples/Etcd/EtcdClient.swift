import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A client of etcd's v3 JSON gateway: put, get and compare-and-set of string keys, one member per request.
///
/// Each request goes to the member a call names, by its index in ``endpoints``, and is
/// abandoned after ``timeout``. Any error is an ``EtcdClientError``, and any error means the
/// operation's effect is unknown: it may still be applied.
///
/// ```swift
/// let client = EtcdClient(cluster: cluster, timeout: .seconds(1))
/// try await client.put("x", "1", on: 0)
/// let swapped = try await client.compareAndSet("x", expecting: "1", to: "2", on: 1)
/// ```
public final class EtcdClient: Sendable {
  /// The members' client URLs, `http://host:port`; a request's `member` indexes them.
  public let endpoints: [URL]
  /// How long a request may wait for its answer before it fails with ``EtcdClientError/timedOut(member:after:)``.
  public let timeout: Duration
  /// The HTTP connections, kept open between requests to each member.
  private let session: URLSession

  /// A client of the members at `endpoints`, whose requests wait at most `timeout` for an answer.
  public init(endpoints: [URL], timeout: Duration = .seconds(1)) {
    self.endpoints = endpoints
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    // Enough for every task of a workload to have its own connection to a member.
    configuration.httpMaximumConnectionsPerHost = 64
    // A backstop only: the client's own timer, exact and per request, fires first.
    configuration.timeoutIntervalForRequest = timeout.seconds + 1
    session = URLSession(configuration: configuration)
  }

  /// A client of every member of `cluster`, indexed as the cluster indexes them.
  public convenience init(cluster: EtcdCluster, timeout: Duration = .seconds(1)) {
    self.init(endpoints: cluster.members.map(\.clientURL), timeout: timeout)
  }

  deinit {
    session.invalidateAndCancel()
  }

  /// Sets `key` to `value` through member `member`.
  ///
  /// ```swift
  /// try await client.put("x", "1", on: 0)
  /// ```
  public func put(_ key: String, _ value: String, on member: Int) async throws(EtcdClientError) {
    _ = try await post(
      "v3/kv/put", GatewayPut(key: Self.base64(key), value: Self.base64(value)), on: member,
      answer: GatewayPutResponse.self)
  }

  /// The value of `key` as member `member` reads it, or nil when the key is absent.
  ///
  /// A linearizable read (`serializable: false`) goes through the leader's quorum, so it sees
  /// every write that completed before it began. A serializable read is answered from the
  /// member's own state, without a quorum: it works on a member cut off from the others, and
  /// may return a value that is no longer current.
  ///
  /// ```swift
  /// let value = try await client.get("x", serializable: false, on: 1)
  /// ```
  public func get(_ key: String, serializable: Bool, on member: Int) async throws(EtcdClientError)
    -> String?
  {
    let answer = try await post(
      "v3/kv/range", GatewayRange(key: Self.base64(key), serializable: serializable), on: member,
      answer: GatewayRangeResponse.self)
    guard let found = answer.kvs?.first else { return nil }
    guard let value = Data(base64Encoded: found.value ?? "") else {
      throw .malformedResponse(member: member, body: "value \(found.value ?? "") is not base64")
    }
    return String(decoding: value, as: UTF8.self)
  }

  /// Sets `key` to `new` if its value is `old` (or, for a nil `old`, if it is absent); whether it did.
  ///
  /// One txn: its compare is `VALUE == old`, or `CREATE == 0` (the key has no create revision,
  /// so it is absent) for a nil `old`; its success branch is the put. A `VALUE` compare on an
  /// absent key fails, so `expecting: ""` does not match an absent key.
  ///
  /// ```swift
  /// let created = try await client.compareAndSet("x", expecting: nil, to: "1", on: 2)
  /// ```
  public func compareAndSet(
    _ key: String, expecting old: String?, to new: String, on member: Int
  ) async throws(EtcdClientError) -> Bool {
    let encodedKey = Self.base64(key)
    let compare =
      if let old {
        GatewayTxn.Compare(
          target: "VALUE", result: "EQUAL", key: encodedKey, value: Self.base64(old))
      } else {
        GatewayTxn.Compare(target: "CREATE", result: "EQUAL", key: encodedKey, createRevision: "0")
      }
    let txn = GatewayTxn(
      compare: [compare],
      success: [.init(requestPut: GatewayPut(key: encodedKey, value: Self.base64(new)))])
    let answer = try await post("v3/kv/txn", txn, on: member, answer: GatewayTxnResponse.self)
    return answer.succeeded ?? false
  }

  /// Whether member `member` reports itself healthy on `GET /health`: it sees a leader and can reach a quorum.
  public func isHealthy(member: Int) async throws(EtcdClientError) -> Bool {
    var request = URLRequest(url: endpoint(member).appendingPathComponent("health"))
    request.httpMethod = "GET"
    let (body, status) = try await send(request, to: member)
    // An unhealthy member answers 503 with the same JSON.
    guard status == 200 || status == 503 else {
      throw .httpStatus(member: member, status: status, body: String(decoding: body, as: UTF8.self))
    }
    guard let health = try? JSONDecoder().decode(GatewayHealth.self, from: body) else {
      throw .malformedResponse(member: member, body: String(decoding: body, as: UTF8.self))
    }
    return health.health == "true"
  }

  /// The client URL of member `member`.
  private func endpoint(_ member: Int) -> URL {
    precondition(endpoints.indices.contains(member), "no etcd member \(member)")
    return endpoints[member]
  }

  /// POSTs `message` as JSON to `path` on member `member` and decodes a 200 answer as `answer`.
  private func post<Answer: Decodable>(
    _ path: String, _ message: some Encodable, on member: Int, answer: Answer.Type
  ) async throws(EtcdClientError) -> Answer {
    var request = URLRequest(url: endpoint(member).appendingPathComponent(path))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    // The gateway's messages are plain structs of strings and Booleans: encoding cannot fail.
    request.httpBody = try! JSONEncoder().encode(message)
    let (body, status) = try await send(request, to: member)
    guard status == 200 else {
      throw .httpStatus(member: member, status: status, body: String(decoding: body, as: UTF8.self))
    }
    guard let decoded = try? JSONDecoder().decode(Answer.self, from: body) else {
      throw .malformedResponse(member: member, body: String(decoding: body, as: UTF8.self))
    }
    return decoded
  }

  /// Sends `request` and returns the answer's body and status, or fails at the timeout or on cancellation.
  ///
  /// The answer, the timer and the caller's cancellation race; the first to come decides the
  /// outcome and the others are ignored. The timer and cancellation cancel the URL task too,
  /// which drops its connection, so nothing of the request lingers.
  private func send(_ request: URLRequest, to member: Int) async throws(EtcdClientError) -> (
    body: Data, status: Int
  ) {
    let pending = PendingRequest()
    let timeout = timeout
    let task = session.dataTask(with: request) { body, response, error in
      pending.finish(Self.outcome(body, response, error, member: member, timeout: timeout))
    }
    let timer = DispatchWorkItem {
      pending.finish(.failure(.timedOut(member: member, after: timeout)))
      task.cancel()
    }
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        pending.wait(continuation)
        task.resume()
        DispatchQueue.global().asyncAfter(
          deadline: .now() + .nanoseconds(Int(timeout.nanoseconds)), execute: timer)
      }
    } onCancel: {
      pending.finish(.failure(.cancelled(member: member)))
      task.cancel()
    }
    timer.cancel()
    return try outcome.get()
  }

  /// What a finished URL task means: a body and status, or the error that ended it.
  private static func outcome(
    _ body: Data?, _ response: URLResponse?, _ error: (any Error)?, member: Int, timeout: Duration
  ) -> PendingRequest.Outcome {
    if let error = error as? URLError {
      switch error.code {
      case .timedOut: return .failure(.timedOut(member: member, after: timeout))
      case .cancelled: return .failure(.cancelled(member: member))
      case .cannotConnectToHost:
        return .failure(.connectionFailed(member: member, reason: "connection refused"))
      case .networkConnectionLost:
        return .failure(.connectionFailed(member: member, reason: "connection lost"))
      default:
        return .failure(
          .connectionFailed(member: member, reason: "URLError \(error.code.rawValue)"))
      }
    }
    if let error {
      return .failure(.connectionFailed(member: member, reason: "\(error)"))
    }
    guard let response = response as? HTTPURLResponse else {
      return .failure(.malformedResponse(member: member, body: "no HTTP response"))
    }
    return .success((body ?? Data(), response.statusCode))
  }

  /// `text`'s UTF-8 bytes in base64, as the gateway takes keys and values.
  private static func base64(_ text: String) -> String {
    Data(text.utf8).base64EncodedString()
  }
}

/// One request's outcome, decided once by whichever comes first: the answer, the timer, or cancellation.
private final class PendingRequest: Sendable {
  /// A body and an HTTP status, or why there is none.
  typealias Outcome = Result<(body: Data, status: Int), EtcdClientError>

  /// The waiting caller, until the outcome is known; the outcome, once it is.
  private let state = Mutex<(waiter: CheckedContinuation<Outcome, Never>?, outcome: Outcome?)>(
    (nil, nil))

  /// Resumes `waiter` with the outcome when it is known, at once if it already is.
  func wait(_ waiter: CheckedContinuation<Outcome, Never>) {
    let known = state.withLock { state in
      if state.outcome == nil { state.waiter = waiter }
      return state.outcome
    }
    if let known { waiter.resume(returning: known) }
  }

  /// Decides the outcome, unless something came first, and resumes the waiter if there is one.
  func finish(_ outcome: Outcome) {
    let waiter = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
      guard state.outcome == nil else { return nil }
      state.outcome = outcome
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: outcome)
  }
}

extension Duration {
  /// The duration in seconds, as `TimeInterval` takes it.
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// The duration in whole nanoseconds.
  fileprivate var nanoseconds: Int64 {
    components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
  }
}
