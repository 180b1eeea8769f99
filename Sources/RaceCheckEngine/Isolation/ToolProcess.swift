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
    let deadline = Deadline.after(timeout)

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

    let output = exchange(over: parentEnd, input: input, deadline: deadline, endsInput: true) {
      _ in false
    }
    if output.timedOut {
      kill(pid, SIGKILL)
      _ = reap(pid, deadline: .distantFuture)
      return Result(output: output.bytes, termination: .timedOut)
    }
    guard let status = reap(pid, deadline: deadline) else {
      kill(pid, SIGKILL)
      _ = reap(pid, deadline: .distantFuture)
      return Result(output: output.bytes, termination: .timedOut)
    }
    return Result(output: output.bytes, termination: status)
  }

  /// Starts the tool with `stdio` as its stdin and stdout, a clean signal mask, and stderr discarded.
  fileprivate static func spawn(
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

  /// Writes `input` and reads until end of file or until `isComplete` holds for what was read, until `deadline`.
  ///
  /// Writing and reading alternate as the socket allows. `endsInput` shuts the socket for
  /// writing once `input` is written: a tool that runs to completion needs its end of input,
  /// a conversation's tool must wait for the next question.
  fileprivate static func exchange(
    over socket: Int32, input: [UInt8], deadline: Deadline, endsInput: Bool,
    isComplete: ([UInt8]) -> Bool
  ) -> (bytes: [UInt8], timedOut: Bool) {
    var output: [UInt8] = []
    var written = 0
    var writing = true
    if input.isEmpty {
      if endsInput { shutdown(socket, Int32(SHUT_WR)) }
      writing = false
    }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      if !writing, isComplete(output) { return (output, false) }
      let remaining = deadline.timeLeft
      if let remaining, remaining <= .zero { return (output, true) }
      var descriptor = pollfd(
        fd: socket, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0)
      // poll(2) takes whole milliseconds, -1 for no limit.
      let ready = poll(&descriptor, 1, remaining?.wholeMillisecondsRoundedUp ?? -1)
      if ready < 0 && errno != EINTR { return (output, false) }
      guard ready > 0 else { continue }

      if writing && descriptor.revents & Int16(POLLOUT) != 0 {
        let sent = input.withUnsafeBytes { bytes in
          send(socket, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
        }
        if sent > 0 { written += sent }
        // A tool that stopped reading (EPIPE) has answered all it will; keep reading its output.
        if written == input.count || (sent < 0 && errno != EAGAIN && errno != EINTR) {
          if endsInput { shutdown(socket, Int32(SHUT_WR)) }
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

  /// Waits for the tool to end, up to `deadline`; nil if it is still running then.
  fileprivate static func reap(_ pid: pid_t, deadline: Deadline) -> Termination? {
    var status: Int32 = 0
    var pause: UInt32 = 50  // microseconds; the tool has closed its output, so it is about to exit.
    while true {
      let result = waitpid(pid, &status, deadline.isDistantFuture ? 0 : WNOHANG)
      if result == pid { break }
      if result < 0 && errno != EINTR { return .exited(-1) }
      if deadline.hasPassed { return nil }
      if result == 0 {
        usleep(pause)
        pause = min(pause * 2, 10_000)
      }
    }
    // The <sys/wait.h> macros do not import into Swift: the low 7 bits are the signal, the next byte the code.
    let signal = status & 0x7f
    return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
  }
}

extension ToolProcess {
  /// A tool kept running to answer question after question, one line of output per line of input.
  ///
  /// llvm-symbolizer reads a module's debug information once and keeps it: a second batch
  /// about the same modules costs microseconds where a fresh launch costs tens of
  /// milliseconds. A question that is not answered in time, or a tool that ends, ends the
  /// conversation: it is killed and every later question fails at once.
  package final class Conversation {
    private let socket: Int32
    private let pid: pid_t
    private var isOver = false

    /// Starts `executable` with `arguments`, hiding the environment variables `removing` names.
    package init(
      _ executable: String, arguments: [String] = [], removing hiddenVariables: Set<String> = []
    ) throws(Failure) {
      var ends: [Int32] = [-1, -1]
      let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      guard socketpair(AF_UNIX, socketType, 0, &ends) == 0 else {
        throw .socketFailed(errno: errno)
      }
      defer { close(ends[1]) }  // The tool's end; held here, the tool would never see end of input.
      do {
        pid = try spawn(executable, arguments: arguments, stdio: ends[1], hiding: hiddenVariables)
      } catch {
        close(ends[0])
        throw error
      }
      socket = ends[0]
      _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    }

    deinit {
      end()
      close(socket)
    }

    /// The tool's answers to `lines`, one line each, or nil when it did not give them all within `timeout`.
    package func ask(_ lines: [String], timeout: Duration) -> [String]? {
      guard !isOver else { return nil }
      let expected = lines.count
      let input = Array(lines.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined().utf8)
      let output = exchange(
        over: socket, input: input, deadline: .after(timeout),
        endsInput: false
      ) { bytes in bytes.count { $0 == UInt8(ascii: "\n") } >= expected }
      let answers = output.bytes.split(
        separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      // Exactly one line each: anything more would be taken for the next question's answers.
      guard !output.timedOut, answers.count == expected + 1, answers.last?.isEmpty == true else {
        end()
        return nil
      }
      return answers.prefix(expected).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Ends the tool: end of input first, then a kill for one that does not exit at once.
    private func end() {
      guard !isOver else { return }
      isOver = true
      shutdown(socket, Int32(SHUT_WR))
      if ToolProcess.reap(pid, deadline: .after(.milliseconds(100))) == nil {
        kill(pid, SIGKILL)
        _ = ToolProcess.reap(pid, deadline: .distantFuture)
      }
    }
  }
}
