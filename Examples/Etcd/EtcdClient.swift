import Foundation
import Synchronization

/// A client of etcd's v3 JSON gateway: put, get and compare-and-set of string keys, one member per request.
///
/// Each request goes to the member a call names, by its index in ``endpoints``, and is
/// abandoned after ``timeout``. Any error is an ``EtcdClientError``, and any error means the
/// operation's effect is unknown: it may still be applied.
///
/// The client speaks HTTP/1.1 itself, over sockets it keeps open between requests, rather than
/// through `URLSession`: the gateway answers every error with a chunked body and a trailer,
/// and on Linux such a response stops the process inside FoundationNetworking (see
/// `HTTPResponseReader`). Each request blocks a thread of its own while it waits, so that a
/// paused member's requests never hold up the cooperative pool.
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
  private let connections: HTTPConnections

  /// A client of the members at `endpoints` (`http://host:port`), whose requests wait at most `timeout` for an answer.
  public init(endpoints: [URL], timeout: Duration = .seconds(1)) {
    self.endpoints = endpoints
    self.timeout = timeout
    connections = HTTPConnections(endpoints)
  }

  /// A client of every member of `cluster`, indexed as the cluster indexes them.
  public convenience init(cluster: EtcdCluster, timeout: Duration = .seconds(1)) {
    self.init(endpoints: cluster.members.map(\.clientURL), timeout: timeout)
  }

  /// Sets `key` to `value` through member `member`.
  ///
  /// ```swift
  /// try await client.put("x", "1", on: 0)
  /// ```
  public func put(_ key: String, _ value: String, on member: Int) async throws(EtcdClientError) {
    _ = try await post(
      "/v3/kv/put", GatewayPut(key: Self.base64(key), value: Self.base64(value)), on: member,
      answer: GatewayPutResponse.self)
  }

  /// The value of `key` as member `member` reads it, or nil when the key is absent.
  ///
  /// A linearizable read (`serializable: false`) goes through the leader's quorum, so it sees
  /// every write that completed before it began. A serializable read is answered from the
  /// member's own state, without a quorum: it works on a member cut off from the others, and
  /// may return a value that is no longer current. A member resumed after a pause answers the
  /// serializable reads it received while paused, and those sent in the first milliseconds
  /// after, from the state it had when paused, before it catches up with the leader.
  ///
  /// ```swift
  /// let value = try await client.get("x", serializable: false, on: 1)
  /// ```
  public func get(_ key: String, serializable: Bool, on member: Int) async throws(EtcdClientError)
    -> String?
  {
    let answer = try await post(
      "/v3/kv/range", GatewayRange(key: Self.base64(key), serializable: serializable), on: member,
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
    let answer = try await post("/v3/kv/txn", txn, on: member, answer: GatewayTxnResponse.self)
    return answer.succeeded ?? false
  }

  /// Whether member `member` reports itself healthy on `GET /health`: it sees a leader and can reach a quorum.
  public func isHealthy(member: Int) async throws(EtcdClientError) -> Bool {
    let response = try await send(request("GET", "/health", body: [], to: member), to: member)
    let body = String(decoding: response.body, as: UTF8.self)
    // An unhealthy member answers 503 with the same JSON.
    guard response.status == 200 || response.status == 503 else {
      throw .httpStatus(member: member, status: response.status, body: body)
    }
    guard let health = try? JSONDecoder().decode(GatewayHealth.self, from: Data(response.body))
    else {
      throw .malformedResponse(member: member, body: body)
    }
    return health.health == "true"
  }

  /// POSTs `message` as JSON to `path` on member `member` and decodes a 200 answer as `answer`.
  private func post<Answer: Decodable>(
    _ path: String, _ message: some Encodable, on member: Int, answer: Answer.Type
  ) async throws(EtcdClientError) -> Answer {
    // The gateway's messages are plain structs of strings and Booleans: encoding cannot fail.
    let json = try! JSONEncoder().encode(message)
    let response = try await send(request("POST", path, body: Array(json), to: member), to: member)
    let body = String(decoding: response.body, as: UTF8.self)
    guard response.status == 200 else {
      throw .httpStatus(member: member, status: response.status, body: body)
    }
    guard let decoded = try? JSONDecoder().decode(Answer.self, from: Data(response.body)) else {
      throw .malformedResponse(member: member, body: body)
    }
    return decoded
  }

  /// The bytes of an HTTP/1.1 request to member `member` for `path`, with a JSON `body` (none for a GET).
  private func request(_ method: String, _ path: String, body: [UInt8], to member: Int) -> [UInt8] {
    precondition(endpoints.indices.contains(member), "no etcd member \(member)")
    let host = "\(endpoints[member].host ?? "127.0.0.1"):\(endpoints[member].port ?? 80)"
    var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
    if method != "GET" {
      head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
    }
    return Array((head + "\r\n").utf8) + body
  }

  /// Sends `request` to member `member` and returns the answer, or fails at the timeout or on cancellation.
  ///
  /// The exchange runs on a thread of its own and ends by the timeout whatever the member does.
  /// If the caller's task is cancelled first, the call returns at once and the thread finishes
  /// (by the timeout at the latest) unobserved.
  private func send(_ request: [UInt8], to member: Int) async throws(EtcdClientError)
    -> HTTPResponseReader.Response
  {
    if Task.isCancelled { throw .cancelled(member: member) }
    let pending = PendingRequest()
    let (connections, timeout) = (connections, timeout)
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        pending.wait(continuation)
        let thread = Thread {
          pending.finish(connections.exchange(request, with: member, timeout: timeout))
        }
        thread.stackSize = 256 * 1_024
        thread.start()
      }
    } onCancel: {
      pending.finish(.failure(.cancelled(member: member)))
    }
    return try outcome.get()
  }

  /// `text`'s UTF-8 bytes in base64, as the gateway takes keys and values.
  private static func base64(_ text: String) -> String {
    Data(text.utf8).base64EncodedString()
  }
}

/// One request's outcome, decided once by whichever comes first: the exchange (ended by its timeout) or cancellation.
private final class PendingRequest: Sendable {
  /// A response, or why there is none.
  typealias Outcome = Result<HTTPResponseReader.Response, EtcdClientError>

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
