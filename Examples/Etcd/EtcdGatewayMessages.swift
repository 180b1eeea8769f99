// The JSON of etcd 3.4's v3 gateway (grpc-gateway over the KV service's protobuf messages), as
// much of it as the client uses. Keys and values are base64, 64-bit integers are JSON strings,
// and a field at its zero value is left out of a response: a failed txn has no `succeeded`, an
// absent key's range has no `kvs`, an empty value has no `value`. Field names are the protobuf
// ones, which the gateway accepts and writes.

/// A `PutRequest`: `/v3/kv/put`, and a txn's `request_put`.
struct GatewayPut: Encodable {
  /// The key, base64.
  var key: String
  /// The value, base64.
  var value: String
}

/// A `RangeRequest` for one key: `/v3/kv/range`.
struct GatewayRange: Encodable {
  /// The key, base64.
  var key: String
  /// Whether the member may answer from its own state, without confirming it leads or follows a quorum.
  var serializable: Bool
}

/// A `TxnRequest` with one compare and one operation on success: `/v3/kv/txn`.
struct GatewayTxn: Encodable {
  /// One `Compare`.
  struct Compare: Encodable {
    /// `VALUE` or `CREATE` (the key's create revision, 0 when it is absent).
    var target: String
    /// `EQUAL`.
    var result: String
    /// The key, base64.
    var key: String
    /// What the value must be, base64, for a `VALUE` compare.
    var value: String?
    /// What the create revision must be, for a `CREATE` compare.
    var createRevision: String?

    enum CodingKeys: String, CodingKey {
      case target, result, key, value
      case createRevision = "create_revision"
    }
  }

  /// One `RequestOp` holding a put.
  struct Operation: Encodable {
    /// The put.
    var requestPut: GatewayPut

    enum CodingKeys: String, CodingKey {
      case requestPut = "request_put"
    }
  }

  /// The compares, all of which must hold for `success` to run.
  var compare: [Compare]
  /// The operations run when every compare holds.
  var success: [Operation]
}

/// The `ResponseHeader` every answer carries; decoding it tells an answer from other JSON.
struct GatewayHeader: Decodable {
  /// The store's revision when the member answered.
  var revision: String?
}

/// A `PutResponse`.
struct GatewayPutResponse: Decodable {
  /// The header.
  var header: GatewayHeader
}

/// A `RangeResponse`.
struct GatewayRangeResponse: Decodable {
  /// One `KeyValue`.
  struct KeyValue: Decodable {
    /// The key, base64.
    var key: String
    /// The value, base64; absent when it is empty.
    var value: String?
  }

  /// The header.
  var header: GatewayHeader
  /// The keys found; absent when there are none.
  var kvs: [KeyValue]?
}

/// A `TxnResponse`.
struct GatewayTxnResponse: Decodable {
  /// The header.
  var header: GatewayHeader
  /// Whether every compare held; absent when false.
  var succeeded: Bool?
}

/// The answer of `GET /health`: `{"health":"true"}` with 200, `"false"` with 503.
struct GatewayHealth: Decodable {
  /// "true" or "false".
  var health: String
}
