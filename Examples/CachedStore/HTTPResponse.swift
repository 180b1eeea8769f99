/// One HTTP/1.1 response a handler of ``HTTPServer`` returns: a status, a content type and a body.
///
/// ```swift
/// HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: Array("hi".utf8))
/// ```
public struct HTTPResponse: Hashable, Sendable {
  /// The status code, such as 200.
  public var status: Int
  /// The value of the `Content-Type` field; nil for none.
  public var contentType: String?
  /// Extra header fields, sent after the ones the server writes itself.
  public var fields: [HTTPField]
  /// The body; the server sends its length as `Content-Length`.
  public var body: [UInt8]

  /// Creates a response.
  public init(
    status: Int, contentType: String? = nil, fields: [HTTPField] = [], body: [UInt8] = []
  ) {
    self.status = status
    self.contentType = contentType
    self.fields = fields
    self.body = body
  }

  /// A plain-text response, such as an error's explanation.
  public static func text(_ status: Int, _ text: String) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
  }

  /// The status's reason phrase, such as `OK`; clients ignore it, so any code not listed is `Status`.
  public var reason: String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 204: "No Content"
    case 400: "Bad Request"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 413: "Content Too Large"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 505: "HTTP Version Not Supported"
    default: "Status"
    }
  }

  /// Whether the status forbids a body and a `Content-Length` (1xx, 204 and 304, RFC 9110 §8.6).
  var hasNoContent: Bool { (100..<200).contains(status) || status == 204 || status == 304 }

  /// The response as bytes on the wire, closing the connection after it when `closes`.
  func encoded(closes: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(reason)\r\n"
    if !hasNoContent { head += "Content-Length: \(body.count)\r\n" }
    if let contentType { head += "Content-Type: \(contentType)\r\n" }
    if closes { head += "Connection: close\r\n" }
    for field in fields { head += "\(field.name): \(field.value)\r\n" }
    head += "\r\n"
    return Array(head.utf8) + (hasNoContent ? [] : body)
  }
}
