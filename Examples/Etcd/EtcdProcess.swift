import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls behind ``EtcdCluster``: finding etcd, choosing ports, spawning and reaping processes.
///
/// `posix_spawn` rather than `Foundation.Process`: a member must go into the watchdog's process
/// group (see ``EtcdWatchdog``), which `Process` cannot ask for, and a member's pid must stay
/// its own to pause, kill and reap, with no thread of Foundation's waiting on it.
enum EtcdProcess {
  /// The folders searched for `etcd` after the `PATH`: Debian's `etcd-server` installs it in `/usr/bin`.
  static let fallbackPaths = ["/usr/bin/etcd"]

  /// The `etcd` binary: `explicit` if given, else the first `etcd` on the `PATH`, else `/usr/bin/etcd`.
  static func executable(_ explicit: String?) throws(EtcdClusterError) -> String {
    let candidates: [String]
    if let explicit {
      candidates = [explicit]
    } else {
      let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
      candidates = path.split(separator: ":").map { "\($0)/etcd" } + fallbackPaths
    }
    guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else {
      throw .notInstalled(searched: candidates)
    }
    return found
  }

  /// `count` distinct loopback ports that are free now, below the kernel's range for outgoing connections.
  ///
  /// An outgoing connection (a peer's, or a client's) takes its local port from the ephemeral
  /// range; a listening port chosen there could be taken by one between a member's kill and its
  /// restart. Ports below the range are taken only by listeners, so a killed member gets its
  /// ports back. Each candidate is bound once to check it is free.
  static func freePorts(_ count: Int) throws(EtcdClusterError) -> [UInt16] {
    let ephemeralStart = ephemeralPortRangeStart()
    let low = 10_000
    guard ephemeralStart - low > count * 10 else { throw .noFreePorts }
    var ports: [UInt16] = []
    var tried = Set<Int>()
    var generator = SystemRandomNumberGenerator()
    while ports.count < count && tried.count < 2_000 {
      let port = Int.random(in: low..<ephemeralStart, using: &generator)
      guard tried.insert(port).inserted else { continue }
      if isFree(UInt16(port)) { ports.append(UInt16(port)) }
    }
    guard ports.count == count else { throw .noFreePorts }
    return ports
  }

  /// The first port of `/proc/sys/net/ipv4/ip_local_port_range`, or Linux's default 32768.
  private static func ephemeralPortRangeStart() -> Int {
    let range = try? String(
      contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
    let first = range?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
    return first ?? 32_768
  }

  /// Whether a TCP socket can bind 127.0.0.1:`port` now.
  private static func isFree(_ port: UInt16) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    return bound == 0
  }

  /// Starts `executable` with stdin from `/dev/null` and stdout and stderr appended to `log`.
  ///
  /// The child joins process group `group` (0: a new group of its own), has no signal blocked,
  /// its signals at their defaults, and none of the caller's `ETCD_*` variables, which etcd
  /// would read as flags.
  static func spawn(
    _ executable: String, arguments: [String], log: String, group: pid_t, name: String
  ) throws(EtcdClusterError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    return try spawn(executable, arguments: arguments, actions: &actions, group: group, name: name)
  }

  /// Starts `executable` with the file actions given; see ``spawn(_:arguments:log:group:name:)``.
  static func spawn(
    _ executable: String, arguments: [String], actions: inout posix_spawn_file_actions_t,
    group: pid_t, name: String
  ) throws(EtcdClusterError) -> pid_t {
    // Threads of the caller (dispatch workers among them) block signals, and a test runner may
    // ignore some: the child must stop, continue and die on the signals the cluster sends it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setpgroup(&attributes, group)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let environment = ProcessInfo.processInfo.environment
      .filter { !$0.key.hasPrefix("ETCD_") }
      .map { "\($0.key)=\($0.value)" }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for string in argv + envp { free(string) }
    }
    var pid = pid_t()
    let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard code == 0 else { throw .spawnFailed(process: name, errno: code) }
    return pid
  }

  /// Sends `signal` to `pid`; a process that already ended (and was reaped) is no error here.
  static func signal(_ pid: pid_t, _ signal: Int32) {
    _ = kill(pid, signal)
  }

  /// Waits for `pid` to end and describes how it did; "already reaped" if it is no child to wait for.
  @discardableResult
  static func reap(_ pid: pid_t) -> String {
    var status: Int32 = 0
    while true {
      if waitpid(pid, &status, 0) == pid { return describe(status) }
      if errno != EINTR { return "already reaped" }
    }
  }

  /// Waits until every thread of `pid` has stopped after a SIGSTOP; nil when they have, else how it ended (reaped).
  ///
  /// SIGSTOP takes effect only when a thread of the process next runs: on a busy machine its
  /// other threads may serve requests for milliseconds after `kill` returns. A parent hears of
  /// the stop (`WUNTRACED`) once the last thread has stopped.
  static func waitUntilStopped(_ pid: pid_t) -> String? {
    var status: Int32 = 0
    while true {
      if waitpid(pid, &status, WUNTRACED) == pid {
        // The <sys/wait.h> macros do not import into Swift: a stopped child's low byte is 0x7f.
        return status & 0xff == 0x7f ? nil : describe(status)
      }
      if errno != EINTR { return "ended (already reaped)" }
    }
  }

  /// How `pid` ended if it has (and reaps it), or nil while it is still running or stopped.
  static func reapIfEnded(_ pid: pid_t) -> String? {
    var status: Int32 = 0
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { return describe(status) }
      if result == 0 { return nil }
      if errno != EINTR { return "ended (already reaped)" }
    }
  }

  /// "exited with status N" or "was killed by signal N", from a `waitpid` status.
  private static func describe(_ status: Int32) -> String {
    // The <sys/wait.h> macros do not import into Swift: the low 7 bits are the signal, the next byte the code.
    let signal = status & 0x7f
    return signal == 0
      ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(signal)"
  }

  /// The last `lines` lines of the file at `path` (at most its last 16 KiB), or a note that it is unreadable.
  static func tail(of path: String, lines: Int = 20) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "(no log at \(path))" }
    defer { try? handle.close() }
    let size = (try? handle.seekToEnd()) ?? 0
    try? handle.seek(toOffset: size > 16_384 ? size - 16_384 : 0)
    let text = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    return text.split(separator: "\n", omittingEmptySubsequences: true).suffix(lines)
      .joined(separator: "\n")
  }
}
