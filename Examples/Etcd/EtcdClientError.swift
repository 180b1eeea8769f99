/// Why a request to etcd's JSON gateway gave no answer; but for ``notSent(member:reason:)``, whether the operation took effect is unknown.
///
/// Every case but one means the same to a history: the request may or may not have been
/// applied. A put that timed out may still commit (it may be in the leader's log already, or
/// the member may be paused with the request in its socket, and apply it when it resumes); a
/// 503 "request timed out" from etcd itself means the same; a dropped connection may have
/// carried the request. Record such an operation as indeterminate, never as failed. A request
/// that was never sent, ``notSent(member:reason:)`` (a killed member refuses the
/// connection), had no effect: it may be recorded as failed.
public enum EtcdClientError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No whole answer within the client's timeout; the connection was closed, and the effect is unknown.
  case timedOut(member: Int, after: Duration)
  /// The gateway answered with a status other than 200 OK, and this body (etcd's error as JSON).
  case httpStatus(member: Int, status: Int, body: String)
  /// The gateway answered 200 OK with a body that is not the JSON the request expects.
  case malformedResponse(member: Int, body: String)
  /// No connection could be made ("Connection refused" from a killed member), so the request was never sent and had no effect.
  case notSent(member: Int, reason: String)
  /// The connection broke after the request was sent, before the answer came.
  case connectionFailed(member: Int, reason: String)
  /// The task awaiting the answer was cancelled; the request was abandoned, its effect unknown.
  case cancelled(member: Int)

  /// The index of the member the request went to.
  public var member: Int {
    switch self {
    case .timedOut(let member, _), .httpStatus(let member, _, _),
      .malformedResponse(let member, _), .notSent(let member, _),
      .connectionFailed(let member, _), .cancelled(let member):
      member
    }
  }

  /// A sentence for a report, ending with what is known of the effect.
  public var description: String {
    let what =
      switch self {
      case .timedOut(_, let after): "no answer within \(after)"
      case .httpStatus(_, let status, let body): "HTTP status \(status): \(body)"
      case .malformedResponse(_, let body): "a response that is not etcd's JSON: \(body)"
      case .notSent(_, let reason): "not sent, no connection: \(reason)"
      case .connectionFailed(_, let reason): "connection failed: \(reason)"
      case .cancelled: "the request was cancelled"
      }
    let effect =
      if case .notSent = self { "the operation had no effect" } else {
        "the operation may or may not have taken effect"
      }
    return "etcd member \(member): \(what) (\(effect))"
  }
}
