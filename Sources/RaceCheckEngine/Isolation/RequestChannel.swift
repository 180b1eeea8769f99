#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The channel a worker reads its configuration and requests from, one JSON line each.
///
/// A Unix socket pair rather than a pipe: a spare worker may have died before it is handed
/// out, and `send` with `MSG_NOSIGNAL` then fails with `EPIPE` instead of killing the parent
/// with `SIGPIPE`. The worker reads its end like a pipe's; closing the parent's end is its
/// end-of-file, which tells it to exit.
final class RequestChannel {
  /// The end the child reads, or -1 once the parent closed its copy.
  private(set) var childEnd: Int32
  /// The end the parent writes, or -1 once closed.
  private var parentEnd: Int32

  /// Opens a new channel; both ends are close-on-exec.
  init() throws(SystemCallError) {
    var ends: [Int32] = [-1, -1]
    let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, socketType, 0, &ends) == 0 else { throw .fromErrno("socketpair") }
    parentEnd = ends[0]
    childEnd = ends[1]
  }

  deinit {
    closeChildEnd()
    closeParentEnd()
  }

  /// Closes the parent's copy of the child's end, once the child has its own.
  func closeChildEnd() {
    if childEnd >= 0 { close(childEnd) }
    childEnd = -1
  }

  /// Closes the parent's end: the child reads end-of-file.
  func closeParentEnd() {
    if parentEnd >= 0 { close(parentEnd) }
    parentEnd = -1
  }

  /// Sends `line` and a newline; false when the child is gone or the channel is closed.
  func send(line: [UInt8]) -> Bool {
    let bytes = line + [UInt8(ascii: "\n")]
    return bytes.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let sent = Glibc.send(
          parentEnd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        if sent < 0, errno == EINTR { continue }
        if sent <= 0 { return false }
        offset += sent
      }
      return true
    }
  }
}
