#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call of the isolation layer that failed, with the call's name and its `errno`.
///
/// Isolation talks to the kernel directly (memfd, pipes, posix_spawn, signals); a failure there
/// means the machine refused a resource, and the message names the call so it can be looked up.
package struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The call that failed, as its C name (`memfd_create`, `posix_spawn`…).
  package var call: String
  /// The `errno` value the call left, or the error number it returned.
  package var code: Int32

  /// Creates an error for `call` with error number `code`.
  package init(_ call: String, code: Int32) {
    self.call = call
    self.code = code
  }

  /// Creates an error for `call` from the current `errno`.
  package static func fromErrno(_ call: String) -> SystemCallError {
    SystemCallError(call, code: errno)
  }

  package var description: String {
    "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
  }
}
