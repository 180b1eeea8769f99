/// Reads the HTTP/1.1 requests of one connection out of its bytes as they arrive, pipelined or split anywhere.
///
/// A connection appends what each read returns and takes events until there are none:
///
/// ```swift
/// parser.append(bytes)
/// while let event = try parser.next() { ... }
/// ```
///
/// Bodies are read by `Content-Length` only: a request with `Transfer-Encoding` is refused
/// (501), as this server's clients never send one. After a failure the parser's position in
/// the stream is lost, so the connection answers the failure's status and closes.
struct HTTPRequestParser {
  /// What the bytes so far amount to.
  enum Event: Hashable {
    /// A whole request, body included.
    case request(HTTPRequest)
    /// A request's head asked for `100 Continue` before the client sends its body.
    case expectsContinue
  }

  /// Why the bytes are not a request this server serves; ``status`` is the response's.
  enum Failure: Error, Hashable, CustomStringConvertible {
    /// No blank line ended the head within `limit` bytes.
    case headTooLarge(limit: Int)
    /// The head is not text in UTF-8.
    case headNotUTF8
    /// The request line is not `METHOD SP /target SP HTTP/1.x`.
    case malformedRequestLine(String)
    /// The request line names an HTTP version other than 1.0 and 1.1.
    case unsupportedVersion(String)
    /// A header line is not `name: value` with a token name and a value of visible characters.
    case malformedField(String)
    /// An HTTP/1.1 request without a `Host` field (RFC 9112 §3.2).
    case missingHost
    /// The `Content-Length` fields are not one decimal number.
    case malformedContentLength(String)
    /// The body is longer than the server reads.
    case bodyTooLarge(length: Int, limit: Int)
    /// The request has a `Transfer-Encoding`, such as chunked, which this server does not read.
    case transferEncodingNotSupported(String)

    /// The status the server answers with.
    var status: Int {
      switch self {
      case .headTooLarge: 431
      case .bodyTooLarge: 413
      case .unsupportedVersion: 505
      case .transferEncodingNotSupported: 501
      case .headNotUTF8, .malformedRequestLine, .malformedField, .missingHost,
        .malformedContentLength:
        400
      }
    }

    var description: String {
      switch self {
      case .headTooLarge(let limit): "no blank line ends the request's head within \(limit) bytes"
      case .headNotUTF8: "the request's head is not UTF-8 text"
      case .malformedRequestLine(let line):
        "request line \(quoted(line)) is not 'METHOD /target HTTP/1.1'"
      case .unsupportedVersion(let version): "HTTP version \(quoted(version)) is not 1.0 or 1.1"
      case .malformedField(let line): "header line \(quoted(line)) is not 'name: value'"
      case .missingHost: "an HTTP/1.1 request needs a Host field"
      case .malformedContentLength(let value):
        "Content-Length \(quoted(value)) is not one decimal number"
      case .bodyTooLarge(let length, let limit):
        "the body's \(length) bytes are more than the \(limit) this server reads"
      case .transferEncodingNotSupported(let coding):
        "Transfer-Encoding \(quoted(coding)) is not supported: send a Content-Length"
      }
    }

    private func quoted(_ text: String) -> String {
      "'" + (text.count > 80 ? text.prefix(80) + "…" : text) + "'"
    }
  }

  /// The most bytes a head (request line and fields) may take.
  static let headLimit = 16 * 1024
  /// The most bytes a body may take.
  static let bodyLimit = 1 << 20

  /// The bytes received and not yet part of a request taken.
  private var buffer: [UInt8] = []
  /// The request whose head was read, waiting for its body of `length` bytes.
  private var pending: (request: HTTPRequest, length: Int, continues: Bool)?

  /// Adds the bytes a read returned.
  mutating func append(_ bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
  }

  /// The next event in the bytes so far; nil when the parser needs more bytes.
  mutating func next() throws(Failure) -> Event? {
    if pending == nil {
      guard let end = headEnd() else {
        if buffer.count > Self.headLimit { throw .headTooLarge(limit: Self.headLimit) }
        return nil
      }
      guard end <= Self.headLimit else { throw .headTooLarge(limit: Self.headLimit) }
      guard let head = String(validating: buffer[..<end], as: UTF8.self) else {
        throw .headNotUTF8
      }
      buffer.removeFirst(end + 4)
      let (request, length) = try Self.parse(head: head)
      let continues = request.field("expect")?.lowercased() == "100-continue"
      pending = (request, length, continues)
    }
    guard let waiting = pending else { return nil }
    if buffer.count >= waiting.length {
      var request = waiting.request
      request.body = Array(buffer[..<waiting.length])
      buffer.removeFirst(waiting.length)
      pending = nil
      return .request(request)
    }
    if waiting.continues && buffer.isEmpty {
      pending?.continues = false
      return .expectsContinue
    }
    return nil
  }

  /// The offset of the blank line (CR LF CR LF) that ends the head; nil when it has not arrived.
  private func headEnd() -> Int? {
    guard buffer.count >= 4 else { return nil }
    for index in 0...(buffer.count - 4)
    where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
      && buffer[index + 3] == 10
    {
      return index
    }
    return nil
  }

  /// The request a head describes, without its body, and the body's length.
  private static func parse(head: String) throws(Failure) -> (HTTPRequest, Int) {
    var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
    let line = String(lines.removeFirst())
    let parts = line.split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].unicodeScalars.allSatisfy(isTokenScalar),
      parts[1].first == "/", parts[1].unicodeScalars.allSatisfy(isVisibleASCII)
    else { throw .malformedRequestLine(line) }
    let minorVersion: Int
    switch parts[2] {
    case "HTTP/1.1": minorVersion = 1
    case "HTTP/1.0": minorVersion = 0
    case let version where version.hasPrefix("HTTP/") && version.count == 8:
      throw .unsupportedVersion(String(version.dropFirst(5)))
    default: throw .malformedRequestLine(line)
    }
    var fields: [HTTPField] = []
    for line in lines {
      // No space may come before the colon, and a line starting with one (the obsolete line
      // folding) is refused, as RFC 9112 §5 asks of a server.
      guard let colon = line.firstIndex(of: ":"),
        !line[..<colon].isEmpty, line[..<colon].unicodeScalars.allSatisfy(isTokenScalar)
      else { throw .malformedField(String(line)) }
      var value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
      while value.last == " " || value.last == "\t" { value = value.dropLast() }
      guard value.unicodeScalars.allSatisfy(isFieldValueScalar) else {
        throw .malformedField(String(line))
      }
      fields.append(HTTPField(name: String(line[..<colon]), value: String(value)))
    }
    let request = HTTPRequest(
      method: String(parts[0]), target: String(parts[1]), minorVersion: minorVersion,
      fields: fields)
    if minorVersion == 1 && request.field("host") == nil { throw .missingHost }
    if let coding = request.field("transfer-encoding") {
      throw .transferEncodingNotSupported(coding)
    }
    return (request, try contentLength(of: fields))
  }

  /// The length every `Content-Length` field gives, 0 when there is none.
  private static func contentLength(of fields: [HTTPField]) throws(Failure) -> Int {
    var length: Int?
    for field in fields where field.name == "content-length" {
      // Eighteen digits cannot overflow an Int, and no body this server reads needs more.
      guard !field.value.isEmpty, field.value.count <= 18, field.value.allSatisfy(\.isASCIIDigit),
        let value = Int(field.value), length == nil || length == value
      else { throw .malformedContentLength(field.value) }
      length = value
    }
    guard let length else { return 0 }
    guard length <= bodyLimit else { throw .bodyTooLarge(length: length, limit: bodyLimit) }
    return length
  }

  /// Whether `scalar` may be part of a token: a method or a field name (RFC 9110 §5.6.2).
  private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
    ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
      || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
  }

  /// Whether `scalar` is a visible US-ASCII character, as a request target's are.
  private static func isVisibleASCII(_ scalar: Unicode.Scalar) -> Bool {
    (0x21...0x7E).contains(scalar.value)
  }

  /// Whether `scalar` may be part of a field's value: anything but control characters other than tab.
  private static func isFieldValueScalar(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\t" || (scalar.value >= 0x20 && scalar.value != 0x7F)
  }
}

extension Character {
  /// Whether the character is one of the ASCII digits 0 to 9.
  fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
