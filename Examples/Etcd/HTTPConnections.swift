import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// HTTP/1.1 exchanges with a fixed list of servers over POSIX sockets, keeping idle connections for reuse.
///
/// An exchange blocks its thread (``EtcdClient`` gives each one a thread of its own) and ends
/// by its deadline whatever the server does: every wait is a `poll` bounded by what is left.
/// A kept connection is reused only if it has nothing to read, which a connection whose server
/// closed it or died would have (its end of file); a connection whose exchange did not finish
/// is closed, so a late answer is never read as the next request's.
final class HTTPConnections: Sendable {
  /// Where each server listens: a host name or address and a port.
  let servers: [(host: String, port: UInt16)]
  /// Idle kept connections, per server.
  private let idle: Mutex<[[Int32]]>
  /// At most this many idle connections are kept per server; more are closed.
  private static let idleLimit = 64

  /// Connections to the servers at `urls` (`http://host:port`).
  init(_ urls: [URL]) {
    servers = urls.map { (host: $0.host ?? "127.0.0.1", port: UInt16($0.port ?? 80)) }
    idle = Mutex(Array(repeating: [], count: urls.count))
  }

  deinit {
    idle.withLock { idle in
      for descriptor in idle.joined() { close(descriptor) }
    }
  }

  /// Sends `request` (a whole HTTP/1.1 request) to server `server` and reads its response, within `timeout`.
  func exchange(
    _ request: [UInt8], with server: Int, timeout: Duration
  ) -> Result<HTTPResponseReader.Response, EtcdClientError> {
    let deadline = ContinuousClock.now + timeout
    let descriptor: Int32
    switch takeIdle(server) ?? openConnection(to: server, deadline: deadline, timeout: timeout) {
    case .success(let connected): descriptor = connected
    case .failure(let error): return .failure(error)
    }
    let outcome = exchange(
      request, over: descriptor, with: server, deadline: deadline, timeout: timeout)
    if case .success(let response) = outcome, response.keepsConnection {
      giveBack(descriptor, to: server)
    } else {
      close(descriptor)
    }
    return outcome
  }

  /// A kept connection to `server` that is still open, closing any that are not.
  private func takeIdle(_ server: Int) -> Result<Int32, EtcdClientError>? {
    while let descriptor = idle.withLock({ $0[server].popLast() }) {
      // An idle connection has nothing to read: readable means end of file or a reset.
      var check = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      if poll(&check, 1, 0) == 0 { return .success(descriptor) }
      close(descriptor)
    }
    return nil
  }

  /// Keeps `descriptor` for the next exchange with `server`, unless enough are kept.
  private func giveBack(_ descriptor: Int32, to server: Int) {
    let kept = idle.withLock { idle in
      guard idle[server].count < Self.idleLimit else { return false }
      idle[server].append(descriptor)
      return true
    }
    if !kept { close(descriptor) }
  }

  /// A new non-blocking TCP connection to `server`, made before `deadline`; when none is made, the request is never sent (``EtcdClientError/notSent(member:reason:)``).
  private func openConnection(
    to server: Int, deadline: ContinuousClock.Instant, timeout: Duration
  ) -> Result<Int32, EtcdClientError> {
    let (host, port) = servers[server]
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_family = AF_UNSPEC
    var found: UnsafeMutablePointer<addrinfo>?
    let code = getaddrinfo(host, String(port), &hints, &found)
    guard code == 0, let address = found else {
      return .failure(
        .notSent(
          member: server, reason: "cannot resolve \(host): \(String(cString: gai_strerror(code)))"))
    }
    defer { freeaddrinfo(found) }
    let descriptor = socket(
      address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else {
      return .failure(.notSent(member: server, reason: "socket: \(Self.describe(errno))"))
    }
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    var one: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    if connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
      guard errno == EINPROGRESS else {
        let failure = Self.describe(errno)
        close(descriptor)
        return .failure(.notSent(member: server, reason: failure))
      }
      switch wait(for: Int16(POLLOUT), on: descriptor, until: deadline) {
      case .ready: break
      case .timedOut:
        close(descriptor)
        return .failure(.notSent(member: server, reason: "no connection within \(timeout)"))
      }
      var failure: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
      guard failure == 0 else {
        close(descriptor)
        return .failure(.notSent(member: server, reason: Self.describe(failure)))
      }
    }
    return .success(descriptor)
  }

  /// Writes `request` on `descriptor` and reads the response, until `deadline`.
  private func exchange(
    _ request: [UInt8], over descriptor: Int32, with server: Int,
    deadline: ContinuousClock.Instant, timeout: Duration
  ) -> Result<HTTPResponseReader.Response, EtcdClientError> {
    var written = 0
    while written < request.count {
      let sent = request.withUnsafeBytes { bytes in
        send(descriptor, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
      }
      if sent > 0 {
        written += sent
      } else if errno == EAGAIN || errno == EINTR {
        if case .timedOut = wait(for: Int16(POLLOUT), on: descriptor, until: deadline) {
          return .failure(.timedOut(member: server, after: timeout))
        }
      } else {
        return .failure(
          .connectionFailed(member: server, reason: "sending the request: \(Self.describe(errno))"))
      }
    }
    var reader = HTTPResponseReader()
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count < 0 && (errno == EAGAIN || errno == EINTR) {
        if case .timedOut = wait(for: Int16(POLLIN), on: descriptor, until: deadline) {
          return .failure(.timedOut(member: server, after: timeout))
        }
        continue
      }
      if count < 0 {
        return .failure(
          .connectionFailed(member: server, reason: "reading the answer: \(Self.describe(errno))"))
      }
      switch reader.append(buffer[0..<count], atEndOfFile: count == 0) {
      case .complete(let response): return .success(response)
      case .malformed(let why):
        return .failure(
          .malformedResponse(
            member: server,
            body: "\(why): \(String(decoding: reader.received.prefix(200), as: UTF8.self))"))
      case .incomplete:
        if count == 0 {
          return .failure(
            .connectionFailed(
              member: server,
              reason: "the connection closed after \(reader.received.count) bytes of the answer"))
        }
      }
    }
  }

  /// How a wait for a socket ended.
  private enum Wait {
    /// The socket is ready (or has an error to report, which the next call returns).
    case ready
    /// The deadline came first.
    case timedOut
  }

  /// Waits until `descriptor` is ready for `events`, or `deadline`.
  private func wait(
    for events: Int16, on descriptor: Int32, until deadline: ContinuousClock.Instant
  )
    -> Wait
  {
    while true {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { return .timedOut }
      // poll(2) takes whole milliseconds: round up, so that it never returns before the deadline.
      let milliseconds = Int32(
        clamping: left.components.seconds * 1_000
          + (left.components.attoseconds + 999_999_999_999_999)
          / 1_000_000_000_000_000)
      var check = pollfd(fd: descriptor, events: events, revents: 0)
      let ready = poll(&check, 1, milliseconds)
      if ready > 0 { return .ready }
      if ready < 0 && errno != EINTR { return .ready }
    }
  }

  /// `strerror`'s words for `code`.
  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
