#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A shell that kills a cluster's members, and removes its folder, if the process that started them dies.
///
/// A test process can end without running ``EtcdCluster/stop()`` or any deinit: it crashes, or
/// it is an isolated child that its parent kills at a hang timeout. Its etcd members would then
/// run on, holding their ports, and their folder (about 370 MB of preallocated write-ahead
/// logs) would stay. So the watchdog leads a process group of its own, which every member
/// joins, and reads a socket whose other end only this process holds (that end is
/// close-on-exec, so no child inherits it). ``stop()`` writes a line: the shell exits, the
/// cluster having cleaned up. If the end closes first, the process is gone: the shell starts a
/// helper in a session of its own (`setsid`), which kills the whole group with SIGKILL, the
/// shell included, and removes the folder.
struct EtcdWatchdog: Sendable {
  /// The shell's pid, which is also the process group the members join.
  let pid: pid_t
  /// This process's end of the socket pair; closing it sets the watchdog off.
  private let writer: Int32

  /// What the shell runs, with the folder as `$1`; without `setsid`, it still kills the group.
  private static let script = """
    if read line; then exit 0; fi
    setsid sh -c 'kill -s KILL -- "-$1"; rm -rf -- "$2"' etcd-cleanup "$$" "$1"
    kill -s KILL 0
    """

  /// Starts the watchdog shell in a new process group, to remove `directory` if this process dies.
  static func start(removing directory: String) throws(EtcdClusterError) -> EtcdWatchdog {
    // A socket pair rather than pipe(2): it is made close-on-exec in one call (pipe2 needs
    // _GNU_SOURCE), so a process another thread spawns meanwhile cannot inherit the writer.
    var ends: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, type, 0, &ends) == 0 else {
      throw .spawnFailed(process: "the etcd watchdog (/bin/sh)", errno: errno)
    }
    let (reader, writer) = (ends[0], ends[1])
    defer { close(reader) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears close-on-exec on the copy, so the shell keeps the read end as its stdin.
    posix_spawn_file_actions_adddup2(&actions, reader, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    do {
      let pid = try EtcdProcess.spawn(
        "/bin/sh", arguments: ["-c", script, "etcd-watchdog", directory], actions: &actions,
        group: 0,
        name: "the etcd watchdog (/bin/sh)")
      return EtcdWatchdog(pid: pid, writer: writer)
    } catch {
      close(writer)
      throw error
    }
  }

  /// Tells the shell that the cluster stopped (it exits) and reaps it.
  func stop() {
    _ = Array("stop\n".utf8).withUnsafeBytes {
      send(writer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    close(writer)
    EtcdProcess.reap(pid)
  }
}
