/// One HTTP/1.1 request as ``HTTPServer`` hands it to its handler: the request line, the header fields and the body.
///
/// ```swift
/// let server = HTTPServer { request in
///   HTTPResponse(status: 200, body: Array("you asked for \(request.path)".utf8))
/// }
/// ```
public struct HTTPRequest: Hashable, Sendable {
  /// The method, such as `GET` or `PUT`, as the client spelled it (methods are case-sensitive).
  public var method: String
  /// The request target as sent, in origin form: a path starting with `/`, perhaps with a query.
  public var target: String
  /// The minor version of HTTP/1.x: 1 for HTTP/1.1, 0 for HTTP/1.0.
  public var minorVersion: Int
  /// The header fields in the order the client sent them.
  public var fields: [HTTPField]
  /// The body, as many bytes as the request's `Content-Length` said.
  public var body: [UInt8]

  /// Creates a request.
  public init(
    method: String, target: String, minorVersion: Int = 1, fields: [HTTPField] = [],
    body: [UInt8] = []
  ) {
    self.method = method
    self.target = target
    self.minorVersion = minorVersion
    self.fields = fields
    self.body = body
  }

  /// The target's path: the target up to its query, still percent-encoded.
  public var path: Substring {
    target.prefix { $0 != "?" }
  }

  /// The value of the first field named `name` (compared case-insensitively); nil when there is none.
  public func field(_ name: String) -> String? {
    let name = name.lowercased()
    return fields.first { $0.name == name }?.value
  }

  /// Whether the client keeps the connection open after the response.
  ///
  /// HTTP/1.1 keeps it unless the client sends `Connection: close`; HTTP/1.0 closes it
  /// unless the client sends `Connection: keep-alive`.
  public var keepsAlive: Bool {
    let options = (field("connection") ?? "").lowercased().split(separator: ",").map {
      $0.filter { $0 != " " && $0 != "\t" }
    }
    return minorVersion >= 1 ? !options.contains("close") : options.contains("keep-alive")
  }
}
