#if canImport(Glibc)
  import Glibc
#endif

/// One accepted connection of ``HTTPServer``: reads its requests, calls the handler, writes the responses in order.
///
/// It serves until the client closes, asks to close, sends what is not a request this server
/// reads, or the server shuts the socket down. The caller closes the socket afterwards.
struct HTTPConnection {
  let socket: Int32
  let handler: @Sendable (HTTPRequest) -> HTTPResponse

  /// Serves the connection until it ends.
  func serve() {
    var parser = HTTPRequestParser()
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      do {
        while let event = try parser.next() {
          switch event {
          case .expectsContinue:
            guard write(HTTPResponse(status: 100).encoded(closes: false)) else { return }
          case .request(let request):
            let closes = !request.keepsAlive
            guard write(handler(request).encoded(closes: closes)), !closes else { return }
          }
        }
      } catch {
        let response = HTTPResponse.text(error.status, error.description + "\n")
        if write(response.encoded(closes: true)) { lingerBeforeClosing() }
        return
      }
      let count = recv(socket, &buffer, buffer.count, 0)
      if count > 0 {
        parser.append(buffer[..<count])
      } else if count < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }

  /// Writes all of `bytes`; false when the connection is gone.
  private func write(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { bytes in
      var sent = 0
      while sent < bytes.count {
        // MSG_NOSIGNAL: a client that went away fails the write instead of raising SIGPIPE.
        let count = send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
        if count > 0 {
          sent += count
        } else if count < 0 && errno == EINTR {
          continue
        } else {
          return false
        }
      }
      return true
    }
  }

  /// Ends the sending side and reads what the client still sends, for at most a second and 64 KiB.
  ///
  /// Closing a socket with unread bytes makes the system reset the connection, and a client
  /// whose request was refused mid-body would lose the error response to the reset.
  private func lingerBeforeClosing() {
    shutdown(socket, Int32(SHUT_WR))
    var timeout = timeval(tv_sec: 1, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var buffer = [UInt8](repeating: 0, count: 4096)
    var drained = 0
    while drained < 64 * 1024 {
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { return }
      drained += count
    }
  }
}
