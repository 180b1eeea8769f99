#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why an ``EtcdCluster`` could not start, fault or restart a member.
public enum EtcdClusterError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No `etcd` binary on the `PATH` nor at `/usr/bin/etcd`; the paths searched are listed.
  case notInstalled(searched: [String])
  /// The folder for the members' data and logs could not be made or written.
  case directoryFailed(path: String, errno: Int32)
  /// No free loopback ports could be found for the members.
  case noFreePorts
  /// `posix_spawn` could not start a process (the member, or the watchdog that outlives a crash).
  case spawnFailed(process: String, errno: Int32)
  /// A member exited on its own while the cluster waited for it, with the end of its log.
  case memberExited(member: String, status: String, logTail: String)
  /// A member did not answer a health check within the time allowed, with the end of its log.
  case memberNotAnswering(member: String, after: Duration, logTail: String)
  /// The member is killed: it cannot be paused, resumed or killed until it is restarted.
  case memberNotRunning(member: String)
  /// The member is running: only a killed member can be restarted.
  case memberRunning(member: String)
  /// ``EtcdCluster/stop()`` was called: the cluster takes no more faults.
  case clusterStopped
  /// The task waiting for members to answer was cancelled.
  case cancelled

  /// A sentence a user can act on.
  public var description: String {
    switch self {
    case .notInstalled(let searched):
      "etcd is not installed (looked for \(searched.joined(separator: ", "))); "
        + "install it with apt-get install -y etcd-server"
    case .directoryFailed(let path, let code):
      "could not make or write \(path): \(String(cString: strerror(code)))"
    case .noFreePorts:
      "found no free loopback ports for the etcd members"
    case .spawnFailed(let process, let code):
      "could not start \(process): \(String(cString: strerror(code)))"
    case .memberExited(let member, let status, let logTail):
      "etcd member \(member) \(status) before it answered; the end of its log:\n\(logTail)"
    case .memberNotAnswering(let member, let after, let logTail):
      "etcd member \(member) did not answer its health check within \(after); "
        + "the end of its log:\n\(logTail)"
    case .memberNotRunning(let member):
      "etcd member \(member) is killed; restart it first"
    case .memberRunning(let member):
      "etcd member \(member) is running; kill it before restarting it"
    case .clusterStopped:
      "the etcd cluster is stopped"
    case .cancelled:
      "the wait for the etcd members to answer was cancelled"
    }
  }
}
