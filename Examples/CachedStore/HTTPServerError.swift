#if canImport(Glibc)
  import Glibc
#endif

/// Why ``HTTPServer/start()`` could not start serving.
public enum HTTPServerError: Error, Hashable, CustomStringConvertible {
  /// A system call failed with `errno`, such as `bind` on a port another process holds.
  case systemCall(String, errno: Int32)
  /// The server was stopped; a server serves once, so make a new one.
  case stopped

  public var description: String {
    switch self {
    case .systemCall(let call, let errno):
      "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    case .stopped: "the server was stopped and does not start again: make a new one"
    }
  }
}
