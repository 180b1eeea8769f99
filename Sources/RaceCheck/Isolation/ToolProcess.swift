import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a helper tool (llvm-symbolizer) to completion: all input in, all output back, within a deadline.
///
/// `posix_spawn` rather than `Foundation.Process`: a launch costs about 11 ms instead of 53
/// (Process polls for the exit), and the deadline is exact. One Unix socket pair serves as the
/// tool's stdin and stdout: the parent writes and reads in one `poll` loop, so neither side
/// can fill a buffer the other is not draining, whatever the input's size; `shutdown` gives
/// the tool its end of input; `send(MSG_NOSIGNAL)` means a tool that exits early cannot kill
/// the caller with SIGPIPE. At the deadline the tool is killed; it never outlives the call.
package enum ToolProcess {
  /// How the tool's run ended, with everything it wrote to stdout.
  package struct Result: Sendable {
    /// The bytes the tool wrote before it ended or was killed.
    package var output: [UInt8]
    /// How the tool ended.
    package var termination: Termination
  }

  /// How a tool's process ended.
  package enum Termination: Hashable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)
    /// It was still running at the deadline and was killed.
    case timedOut
  }

  /// Why a tool could not be run at all.
  package enum Failure: Error, Hashable, Sendable {
    /// `posix_spawn` refused `path` (it is missing or not executable) with this errno.
    case launchFailed(path: String, errno: Int32)
    /// The socket to talk to the tool could not be made.
    case socketFailed(errno: Int32)

    /// A sentence for a report.
    package var message: String {
      switch self {
      case .launchFailed(let path, let code):
        "could not run \(path): \(String(cString: strerror(code)))"
      case .socketFailed(let code):
        "could not make a socket for a helper tool: \(String(cString: strerror(code)))"
      }
    }
  }

  /// Runs `executable` with `arguments`, feeding it `input` and collecting its stdout, for at most `timeout`.
  ///
  /// The tool's stderr goes to `/dev/null`; `removing` names environment variables it must not
  /// see (llvm-symbolizer would fetch debug info over the network if `DEBUGINFOD_URLS` is set).
  ///
  /// ```swift
  /// let result = try ToolProcess.run("/usr/bin/sort", input: Array("b\na\n".utf8), timeout: .seconds(1))
  /// ```
  package static func run(
    _ executable: String, arguments: [String] = [], input: [UInt8], timeout: Duration,
    removing hiddenVariables: Set<String> = []
  ) throws(Failure) -> Result {
    let deadline = MonotonicClock.now() + nanoseconds(timeout)

    var ends: [Int32] = [-1, -1]
    let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, socketType, 0, &ends) == 0 else { throw .socketFailed(errno: errno) }
    let (parentEnd, childEnd) = (ends[0], ends[1])
    defer { close(parentEnd) }

    let pid: pid_t
    do {
      defer { close(childEnd) }  // The parent must not hold the child's end, or it never sees EOF.
      pid = try spawn(executable, arguments: arguments, stdio: childEnd, hiding: hiddenVariables)
    }
    _ = fcntl(parentEnd, F_SETFL, fcntl(parentEnd, F_GETFL) | O_NONBLOCK)

    let output = exchange(over: parentEnd, input: input, deadline: deadline)
    if output.timedOut {
      kill(pid, SIGKILL)
      _ = reap(pid, deadline: nil)
      return Result(output: output.bytes, termination: .timedOut)
    }
    guard let status = reap(pid, deadline: deadline) else {
      kill(pid, SIGKILL)
      _ = reap(pid, deadline: nil)
      return Result(output: output.bytes, termination: .timedOut)
    }
    return Result(output: output.bytes, termination: status)
  }

  /// Starts the tool with `stdio` as its stdin and stdout, a clean signal mask, and stderr discarded.
  private static func spawn(
    _ executable: String, arguments: [String], stdio: Int32, hiding hiddenVariables: Set<String>
  ) throws(Failure) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdio, 0)
    posix_spawn_file_actions_adddup2(&actions, stdio, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

    // Threads of the caller (dispatch workers among them) block signals; the tool should not inherit that.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaultSignals = sigset_t()
    sigemptyset(&defaultSignals)
    sigaddset(&defaultSignals, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let environment = ProcessInfo.processInfo.environment
      .filter { !hiddenVariables.contains($0.key) }
      .map { "\($0.key)=\($0.value)" }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for string in argv + envp { free(string) }
    }

    var pid = pid_t()
    let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard code == 0 else { throw .launchFailed(path: executable, errno: code) }
    return pid
  }

  /// Writes `input` and reads until end of file, alternating as the socket allows, until `deadline`.
  private static func exchange(over socket: Int32, input: [UInt8], deadline: Int64) -> (
    bytes: [UInt8], timedOut: Bool
  ) {
    var output: [UInt8] = []
    var written = 0
    var writing = true
    if input.isEmpty {
      shutdown(socket, Int32(SHUT_WR))
      writing = false
    }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let remaining = deadline - MonotonicClock.now()
      guard remaining > 0 else { return (output, true) }
      var descriptor = pollfd(
        fd: socket, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0)
      let ready = poll(&descriptor, 1, Int32(clamping: (remaining + 999_999) / 1_000_000))
      if ready < 0 && errno != EINTR { return (output, false) }
      guard ready > 0 else { continue }

      if writing && descriptor.revents & Int16(POLLOUT) != 0 {
        let sent = input.withUnsafeBytes { bytes in
          send(socket, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
        }
        if sent > 0 { written += sent }
        // A tool that stopped reading (EPIPE) has answered all it will; keep reading its output.
        if written == input.count || (sent < 0 && errno != EAGAIN && errno != EINTR) {
          shutdown(socket, Int32(SHUT_WR))
          writing = false
        }
      }
      if descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        let received = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if received > 0 {
          output.append(contentsOf: buffer[0..<received])
        } else if received == 0 || (errno != EAGAIN && errno != EINTR) {
          return (output, false)
        }
      }
    }
  }

  /// Waits for the tool to end, up to `deadline` (forever when nil); nil if it is still running then.
  private static func reap(_ pid: pid_t, deadline: Int64?) -> Termination? {
    var status: Int32 = 0
    var pause: UInt32 = 50  // microseconds; the tool has closed its output, so it is about to exit.
    while true {
      let result = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
      if result == pid { break }
      if result < 0 && errno != EINTR { return .exited(-1) }
      if let deadline, MonotonicClock.now() >= deadline { return nil }
      if result == 0 {
        usleep(pause)
        pause = min(pause * 2, 10_000)
      }
    }
    // The <sys/wait.h> macros do not import into Swift: the low 7 bits are the signal, the next byte the code.
    let signal = status & 0x7f
    return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  }

  /// `duration` in whole nanoseconds, the unit of ``MonotonicClock``.
  private static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
  }
}
