#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A shell that kills a cluster's members if the process that started them dies without stopping them.
///
/// A test process can end without running ``EtcdCluster/stop()`` or any deinit: it crashes, or
/// it is an isolated child that its parent kills at a hang timeout. Its etcd members would then
/// run on, holding their ports. So the watchdog leads a process group of its own, which every
/// member joins, and reads a socket whose only other end is this process (that end is close-on-exec,
/// so no child inherits it). When that end closes, by ``stop()`` or by the process's death, the
/// read sees end of file and the shell kills its whole group, members and itself, with SIGKILL.
struct EtcdWatchdog: Sendable {
  /// The shell's pid, which is also the process group the members join.
  let pid: pid_t
  /// This process's end of the socket pair; closing it sets the watchdog off.
  private let writer: Int32

  /// Starts the watchdog shell in a new process group.
  static func start() throws(EtcdClusterError) -> EtcdWatchdog {
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
        "/bin/sh", arguments: ["-c", "read line; kill -s KILL 0"], actions: &actions, group: 0,
        name: "the etcd watchdog (/bin/sh)")
      return EtcdWatchdog(pid: pid, writer: writer)
    } catch {
      close(writer)
      throw error
    }
  }

  /// Sets the watchdog off (it kills whatever is left in its group, then itself) and reaps it.
  func stop() {
    close(writer)
    EtcdProcess.reap(pid)
  }
}
