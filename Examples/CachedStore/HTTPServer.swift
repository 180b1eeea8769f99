import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1: a thread per connection, keep-alive, `Content-Length` bodies.
///
/// It serves one handler, called on the connection's thread for each request. ``start()``
/// binds a port of the system's choice and returns it; ``stop()`` closes the listening
/// socket and every connection and joins every thread.
///
/// ```swift
/// let server = HTTPServer { request in .text(200, "hello") }
/// let port = try server.start()
/// defer { server.stop() }
/// ```
///
/// A request that is not HTTP/1.x this server reads gets its 4xx or 5xx status and the
/// connection closes (its position in the byte stream is lost); the server goes on serving.
/// It is an example's server, not a hardened one: it has no idle timeout, no limit on
/// connections and no TLS.
public final class HTTPServer: Sendable {
  let core: Core

  /// Creates a stopped server whose threads are named after `name` and that answers with `handler`.
  ///
  /// `handler` runs on the connection's thread and may block it (a slow store, a test's
  /// pause); other connections go on meanwhile.
  public init(name: String = "http", handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
    core = Core(name: name, handler: handler)
  }

  /// Stops the server if its owner did not: a safety net, as the threads hold only its core.
  deinit {
    core.stop()
  }

  /// Starts listening on 127.0.0.1 at a port the system picks, and returns that port.
  ///
  /// On a running server it returns the port again; on a stopped one it throws
  /// ``HTTPServerError/stopped``.
  @discardableResult
  public func start() throws(HTTPServerError) -> UInt16 {
    try core.start()
  }

  /// Closes the listening socket and every connection, then waits for every thread to end.
  ///
  /// A request whose handler is running finishes first (its response then goes nowhere), so
  /// a handler that never returns keeps `stop()` waiting; a handler must not call it. Calling
  /// it again, or on a server never started, does nothing.
  public func stop() {
    core.stop()
  }

  /// The port the server listens on; nil before ``start()`` and after ``stop()``.
  public var port: UInt16? {
    core.state.withLock { state in
      if case .running(_, let port, _) = state.phase { port } else { nil }
    }
  }
}

extension HTTPServer {
  /// What the server's threads share: the listening socket, the connections and their threads.
  ///
  /// The threads reference the core and not the server, so that dropping the last reference
  /// to the server runs its `deinit`, which stops them.
  final class Core: Sendable {
    /// Where the server is in its life.
    enum Phase {
      case idle
      case running(listener: Int32, port: UInt16, acceptor: JoinableThread)
      case stopped
    }

    /// One open connection: its socket and the thread serving it.
    struct Connection {
      var socket: Int32
      var thread: JoinableThread
    }

    struct State {
      var phase = Phase.idle
      var connections: [Int: Connection] = [:]
      /// Threads whose connection closed, to be joined by the accepting thread or by `stop`.
      var ended: [JoinableThread] = []
      var nextConnection = 0
    }

    let name: String
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let state = Mutex(State())
    /// Held through a whole `stop`, so that a second call returns only once the server stopped.
    private let stopping = Mutex(())

    init(name: String, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
      self.name = name
      self.handler = handler
    }

    func start() throws(HTTPServerError) -> UInt16 {
      try state.withLock { (state) throws(HTTPServerError) -> UInt16 in
        switch state.phase {
        case .running(_, let port, _): return port
        case .stopped: throw .stopped
        case .idle: break
        }
        let (listener, port) = try Self.listen()
        do throws(HTTPServerError) {
          let acceptor = try JoinableThread(name: "\(name) accept") { [self] in
            accept(on: listener)
          }
          state.phase = .running(listener: listener, port: port, acceptor: acceptor)
          return port
        } catch {
          close(listener)
          throw error
        }
      }
    }

    func stop() {
      stopping.withLock { _ in
        let running = state.withLock { state -> (listener: Int32, acceptor: JoinableThread)? in
          guard case .running(let listener, _, let acceptor) = state.phase else { return nil }
          state.phase = .stopped
          return (listener, acceptor)
        }
        guard let running else { return }
        // On Linux, shutting a listening socket down makes a blocked accept fail with EINVAL.
        shutdown(running.listener, Int32(SHUT_RDWR))
        running.acceptor.join()
        close(running.listener)
        // No connection is added once the acceptor ended. Shutting a socket down, under the
        // lock while it is registered, wakes its thread's read; the thread closes the socket
        // itself after unregistering it, so no descriptor is closed twice or reused meanwhile.
        let threads = state.withLock { state in
          let threads = state.connections.values.map(\.thread) + state.ended
          for connection in state.connections.values {
            shutdown(connection.socket, Int32(SHUT_RDWR))
          }
          state.connections = [:]
          state.ended = []
          return threads
        }
        for thread in threads { thread.join() }
      }
    }

    /// A socket listening on 127.0.0.1 at a port the system picks, and that port.
    private static func listen() throws(HTTPServerError) -> (Int32, UInt16) {
      let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard listener >= 0 else { throw .systemCall("socket", errno: errno) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = 0
      address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let failedCall = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> String? in
          if bind(listener, address, length) != 0 { return "bind 127.0.0.1:0" }
          if Glibc.listen(listener, 128) != 0 { return "listen" }
          if getsockname(listener, address, &length) != 0 { return "getsockname" }
          return nil
        }
      }
      if let failedCall {
        let error = errno
        close(listener)
        throw .systemCall(failedCall, errno: error)
      }
      return (listener, UInt16(bigEndian: address.sin_port))
    }

    /// The accepting thread's loop: a thread per connection until the listener is shut down.
    private func accept(on listener: Int32) {
      while true {
        let socket = Glibc.accept(listener, nil, nil)
        if socket < 0 {
          switch errno {
          case EINTR, ECONNABORTED, EPROTO: continue
          case EMFILE, ENFILE, ENOBUFS, ENOMEM:
            // Out of descriptors or memory: closing connections frees some, so wait and retry
            // rather than spin; a stop shuts the listener down, which ends the loop.
            usleep(10_000)
            continue
          default: return
          }
        }
        // The process may launch children (racecheck's isolated workers), which must not
        // inherit the connection.
        _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
        var noDelay: Int32 = 1
        // A response is written in one piece; without this, Nagle's algorithm and the peer's
        // delayed acknowledgement hold a keep-alive connection's next response for 40 ms.
        setsockopt(
          socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let ended = state.withLock { state -> [JoinableThread]? in
          guard case .running = state.phase else {
            close(socket)
            return nil
          }
          let id = state.nextConnection
          state.nextConnection += 1
          do {
            // The thread registers nothing itself: it needs the lock, held here until its
            // entry exists.
            let thread = try JoinableThread(name: "\(name) conn") { [self] in
              serve(connection: id, socket: socket)
            }
            state.connections[id] = Connection(socket: socket, thread: thread)
          } catch {
            close(socket)
          }
          let ended = state.ended
          state.ended = []
          return ended
        }
        guard let ended else { return }
        for thread in ended { thread.join() }
      }
    }

    /// A connection's thread: serves it until it closes, then hands its thread over to be joined.
    private func serve(connection id: Int, socket: Int32) {
      HTTPConnection(socket: socket, handler: handler).serve()
      state.withLock { state in
        if let connection = state.connections.removeValue(forKey: id) {
          state.ended.append(connection.thread)
        }
      }
      close(socket)
    }
  }
}
