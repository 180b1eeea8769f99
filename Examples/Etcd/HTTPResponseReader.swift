import Foundation

/// One HTTP/1.1 response as it arrives: the status line, headers, a body by length or in chunks, and trailers.
///
/// The gateway answers errors in chunks with a trailer (`Grpc-Trailer-Content-Type`), which is
/// why ``EtcdClient`` reads HTTP itself rather than through `URLSession`: on Linux, a response
/// with trailers stops the process in FoundationNetworking (Swift 6.3.1: "Transfer completed,
/// but there's no response", the fatal error of swift-corelibs-foundation issue 5285, whose fix
/// would turn it into a lost connection), and the gateway sends one for every error.
struct HTTPResponseReader {
  /// A complete response.
  struct Response: Sendable, Equatable {
    /// The status code, 200 for OK.
    var status: Int
    /// The body, with any chunked encoding removed.
    var body: [UInt8]
    /// Whether the connection may carry another request (HTTP/1.1 without `Connection: close`).
    var keepsConnection: Bool
  }

  /// What the bytes so far make.
  enum Progress: Equatable {
    /// More bytes are needed.
    case incomplete
    /// The whole response.
    case complete(Response)
    /// Bytes that are not an HTTP/1.x response, and why.
    case malformed(String)
  }

  /// Every byte received so far.
  private(set) var received: [UInt8] = []

  /// Adds `bytes` and reads the response so far; `atEndOfFile` when the connection has closed.
  mutating func append(_ bytes: some Sequence<UInt8>, atEndOfFile: Bool = false) -> Progress {
    received.append(contentsOf: bytes)
    return Self.read(received, atEndOfFile: atEndOfFile)
  }

  /// The response in `bytes`, reading from the start; the whole is small, so each call reads it all again.
  static func read(_ bytes: [UInt8], atEndOfFile: Bool) -> Progress {
    var start = 0
    while true {
      guard let headerEnd = find(crlfcrlf, in: bytes, from: start) else {
        return bytes.count - start > 65_536
          ? .malformed("a header longer than 64 KiB") : .incomplete
      }
      let lines = String(decoding: bytes[start..<headerEnd], as: UTF8.self)
        .split(separator: "\r\n", omittingEmptySubsequences: false)
      let statusLine = lines[0].split(separator: " ", maxSplits: 2)
      guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."),
        let status = Int(statusLine[1])
      else {
        return .malformed("the status line \"\(lines[0].prefix(80))\"")
      }
      var headers: [String: String] = [:]
      for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
          .trimmingCharacters(in: .whitespaces)
      }
      let bodyStart = headerEnd + 4
      // An informational answer (100 Continue) precedes the real one.
      if (100..<200).contains(status) {
        start = bodyStart
        continue
      }
      let connection = headers["connection"]?.lowercased()
      let keeps =
        statusLine[0] == "HTTP/1.1" ? connection != "close" : connection == "keep-alive"
      if status == 204 || status == 304 {
        return .complete(Response(status: status, body: [], keepsConnection: keeps))
      }
      if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
        return readChunks(bytes, from: bodyStart, status: status, keepsConnection: keeps)
      }
      if let length = headers["content-length"] {
        guard let length = Int(length), length >= 0 else {
          return .malformed("the Content-Length \"\(length)\"")
        }
        guard bytes.count - bodyStart >= length else { return .incomplete }
        return .complete(
          Response(
            status: status, body: Array(bytes[bodyStart..<bodyStart + length]),
            keepsConnection: keeps))
      }
      // No length: the body runs to the end of the connection.
      guard atEndOfFile else { return .incomplete }
      return .complete(
        Response(status: status, body: Array(bytes[bodyStart...]), keepsConnection: false))
    }
  }

  /// A chunked body from `start`: chunks of a hexadecimal size line and data, a zero-size chunk, then trailer lines.
  private static func readChunks(
    _ bytes: [UInt8], from start: Int, status: Int, keepsConnection: Bool
  ) -> Progress {
    var body: [UInt8] = []
    var position = start
    while true {
      guard let lineEnd = find(crlf, in: bytes, from: position) else { return .incomplete }
      let line = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
      let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
      guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0
      else {
        return .malformed("the chunk size line \"\(line.prefix(40))\"")
      }
      position = lineEnd + 2
      if size == 0 {
        // Trailer lines (the gateway's Grpc-Trailer-Content-Type), then an empty line.
        while true {
          guard let trailerEnd = find(crlf, in: bytes, from: position) else { return .incomplete }
          if trailerEnd == position {
            return .complete(Response(status: status, body: body, keepsConnection: keepsConnection))
          }
          position = trailerEnd + 2
        }
      }
      guard bytes.count >= position + size + 2 else { return .incomplete }
      body.append(contentsOf: bytes[position..<position + size])
      position += size + 2
    }
  }

  /// The bytes that end a line.
  private static let crlf: [UInt8] = Array("\r\n".utf8)
  /// The bytes that end a header.
  private static let crlfcrlf: [UInt8] = Array("\r\n\r\n".utf8)

  /// The index where `needle` first occurs in `bytes` at or after `start`.
  private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
    return (start...(bytes.count - needle.count)).first { index in
      needle.indices.allSatisfy { bytes[index + $0] == needle[$0] }
    }
  }
}
