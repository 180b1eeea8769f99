import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Serves one folder's files over HTTP on 127.0.0.1, for a browser test of a site that fetches its pages (DocC's renderer).
///
/// One connection at a time, each closed after its response: enough for one headless browser.
final class LocalFileServer: @unchecked Sendable {
  /// Why the server could not start.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The port the system gave the server.
  let port: UInt16
  private let listener: Int32
  private let root: URL
  private let done = DispatchSemaphore(value: 0)

  /// Starts serving `root` on a port of the system's choice.
  init(root: String) throws {
    self.root = URL(fileURLWithPath: root).standardizedFileURL
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && listen(listener, 16) == 0
          && getsockname(listener, pointer, &length) == 0
      }
    }
    guard bound else {
      close(listener)
      throw Failure(description: "bind or listen on 127.0.0.1: errno \(errno)")
    }
    self.listener = listener
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in
      serve()
      done.signal()
    }
    thread.start()
  }

  /// The URL of `path` (starting with `/`) on this server.
  func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// Stops accepting connections and waits for the serving thread to end.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    done.wait()
  }

  private func serve() {
    while true {
      let connection = accept(listener, nil, nil)
      if connection < 0 {
        if errno == EINTR { continue }
        return
      }
      respond(on: connection)
      close(connection)
    }
  }

  private func respond(on connection: Int32) {
    var request = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !request.contains(Data("\r\n\r\n".utf8)) && request.count < 65_536 {
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { break }
      request.append(buffer, count: count)
    }
    let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first ?? ""
    let parts = line.split(separator: " ")
    guard parts.count >= 2, parts[0] == "GET" else { return send(connection, 405, "", Data()) }
    let target = parts[1].split(separator: "?").first.map(String.init) ?? "/"
    var file = root.appendingPathComponent(target.removingPercentEncoding ?? target)
      .standardizedFileURL
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue
    {
      file.appendPathComponent("index.html")
    }
    guard file.path.hasPrefix(root.path), let body = FileManager.default.contents(atPath: file.path)
    else { return send(connection, 404, "text/plain", Data("not found".utf8)) }
    send(connection, 200, Self.contentTypes[file.pathExtension] ?? "application/octet-stream", body)
  }

  private static let contentTypes = [
    "html": "text/html; charset=utf-8", "js": "text/javascript", "css": "text/css",
    "json": "application/json", "svg": "image/svg+xml", "png": "image/png",
    "jpg": "image/jpeg", "ico": "image/x-icon", "md": "text/markdown; charset=utf-8",
  ]

  private func send(_ connection: Int32, _ status: Int, _ type: String, _ body: Data) {
    let head =
      "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: \(type)\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    var response = Data(head.utf8)
    response.append(body)
    response.withUnsafeBytes { bytes in
      var sent = 0
      while sent < bytes.count {
        let count = write(connection, bytes.baseAddress! + sent, bytes.count - sent)
        if count <= 0 { return }
        sent += count
      }
    }
  }
}
