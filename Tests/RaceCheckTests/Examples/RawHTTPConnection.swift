import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP connection to 127.0.0.1 that sends bytes as given, for requests no HTTP client would send.
final class RawHTTPConnection {
  /// Why the connection failed.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let socket: Int32
  /// Bytes received and not yet returned as part of a response.
  private var received: [UInt8] = []

  /// Connects to `port` on 127.0.0.1; a read waits at most 30 s, a bound for a broken server, not a pause.
  init(port: UInt16) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard Self.connect(socket, port) == 0 else {
      let error = errno
      close(socket)
      throw Failure(description: "connect to 127.0.0.1:\(port): errno \(error)")
    }
  }

  deinit {
    close(socket)
  }

  /// Whether a connection to `port` on 127.0.0.1 is refused, as when nothing listens there.
  static func isRefused(port: UInt16) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    return connect(socket, port) != 0 && errno == ECONNREFUSED
  }

  private static func connect(_ socket: Int32, _ port: UInt16) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  /// Sends `text` as UTF-8.
  func send(_ text: String) throws {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
      sent += count
    }
  }

  /// The next response: its status line, and its body as `Content-Length` gives it; nil at the end of the stream.
  func response() throws -> (status: String, body: String)? {
    while true {
      if let end = headEnd() {
        let head = String(decoding: received[..<end], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        let length =
          lines.dropFirst().compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
          }.first ?? 0
        while received.count < end + 4 + length {
          guard try receive() else { throw Failure(description: "the stream ended in a body") }
        }
        let body = String(decoding: received[(end + 4)..<(end + 4 + length)], as: UTF8.self)
        received.removeFirst(end + 4 + length)
        return (String(lines.first ?? ""), body)
      }
      guard try receive() else {
        if received.isEmpty { return nil }
        throw Failure(description: "the stream ended in a head")
      }
    }
  }

  /// Whether the server closed the connection: the next read finds the end of the stream.
  func isClosedByServer() throws -> Bool {
    received.isEmpty ? !(try receive()) : false
  }

  private func headEnd() -> Int? {
    guard received.count >= 4 else { return nil }
    return (0...(received.count - 4)).first {
      received[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10])
    }
  }

  /// Reads what arrived; false at the end of the stream.
  private func receive() throws -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = recv(socket, &buffer, buffer.count, 0)
    if count < 0 { throw Failure(description: "recv: errno \(errno)") }
    received.append(contentsOf: buffer[..<count])
    return count > 0
  }
}
