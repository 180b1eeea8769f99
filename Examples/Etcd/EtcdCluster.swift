import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A cluster of `etcd` members on 127.0.0.1, each a child process a test can pause, kill and restart.
///
/// The members run in a fresh temporary folder (a data folder and a log file each) on free
/// loopback ports, with a short heartbeat and election timeout so that the cluster elects a new
/// leader soon after a fault. ``stop()`` kills every member and removes the folder; deinit calls
/// it too, and a watchdog process kills the members and removes the folder if this process dies
/// without either.
///
/// ```swift
/// let cluster = try await EtcdCluster.start()
/// defer { cluster.stop() }
/// cluster.pause(1); cluster.resume(1)
/// ```
public final class EtcdCluster: Sendable {
  /// One member's fixed facts: its name, its URLs, and where it keeps its data and log.
  public struct Member: Sendable, Hashable {
    /// The member's name in the cluster, `member0`, `member1`, and so on.
    public let name: String
    /// The URL clients reach it at, `http://127.0.0.1:<port>`.
    public let clientURL: URL
    /// The URL the other members reach it at.
    public let peerURL: URL
    /// Its data folder, kept across a kill and a restart.
    public let dataDirectory: String
    /// The file its standard output and error go to, appended to by every restart.
    public let logFile: String
  }

  /// Whether a member's process runs, is paused, or is gone.
  public enum MemberStatus: Sendable, Hashable {
    /// The member's process runs with this pid.
    case running(pid: pid_t)
    /// The member's process with this pid is stopped by SIGSTOP.
    case paused(pid: pid_t)
    /// The member has no process: it was killed (or the cluster stopped) and not restarted.
    case killed
  }

  /// The members, in the order their indices name them in every other call.
  public let members: [Member]
  /// The temporary folder holding the members' data folders and logs; removed by ``stop()``.
  public let directory: String
  /// The `etcd` binary the members run.
  public let executable: String
  /// Each member's command-line arguments, the same at every start.
  private let arguments: [[String]]
  /// What changes: the members' processes, the watchdog, and whether the cluster is stopped.
  private let state: Mutex<State>

  /// The mutable part of a cluster.
  private struct State {
    /// Each member's process.
    var statuses: [MemberStatus]
    /// The process that kills the members if this one dies; nil once stopped.
    var watchdog: EtcdWatchdog?
    /// Whether ``stop()`` ran.
    var isStopped = false
  }

  /// The settings `start` was given, with the ports it chose; no process is started yet.
  private init(
    executable: String, directory: String, ports: [UInt16], heartbeatInterval: Duration,
    electionTimeout: Duration
  ) {
    let count = ports.count / 2
    let members = (0..<count).map { index in
      Member(
        name: "member\(index)",
        clientURL: URL(string: "http://127.0.0.1:\(ports[2 * index])")!,
        peerURL: URL(string: "http://127.0.0.1:\(ports[2 * index + 1])")!,
        dataDirectory: "\(directory)/member\(index).etcd",
        logFile: "\(directory)/member\(index).log")
    }
    let initialCluster = members.map { "\($0.name)=\($0.peerURL.absoluteString)" }
      .joined(separator: ",")
    let milliseconds = { (duration: Duration) in
      String(Int((duration / .milliseconds(1)).rounded()))
    }
    self.members = members
    self.directory = directory
    self.executable = executable
    self.arguments = members.map { member in
      [
        "--name", member.name, "--data-dir", member.dataDirectory,
        "--listen-client-urls", member.clientURL.absoluteString,
        "--advertise-client-urls", member.clientURL.absoluteString,
        "--listen-peer-urls", member.peerURL.absoluteString,
        "--initial-advertise-peer-urls", member.peerURL.absoluteString,
        // Read only at a member's first start: a restart finds its data folder and rejoins.
        "--initial-cluster", initialCluster, "--initial-cluster-state", "new",
        // Unique per cluster, so that a member never joins another test's cluster.
        "--initial-cluster-token", (directory as NSString).lastPathComponent,
        "--heartbeat-interval", milliseconds(heartbeatInterval),
        "--election-timeout", milliseconds(electionTimeout),
        // zap, not the deprecated default logger, which opens every log with a warning.
        "--logger", "zap", "--log-outputs", "stderr",
      ]
    }
    self.state = Mutex(State(statuses: Array(repeating: .killed, count: count)))
  }

  deinit {
    stop()
  }

  /// The `etcd` binary ``start(members:timeout:heartbeatInterval:electionTimeout:executable:)`` runs by default; nil if none.
  ///
  /// The first `etcd` on the `PATH`, else `/usr/bin/etcd`; tests skip when there is none.
  public static var installedExecutable: String? {
    try? EtcdProcess.executable(nil)
  }

  /// Starts `members` etcd processes and returns once every one answers a health check.
  ///
  /// A member answers once it has joined the cluster and sees a leader. `timeout` bounds the
  /// whole wait. `heartbeatInterval` and `electionTimeout` are etcd's flags of those names; a
  /// follower that hears no leader for between one and two election timeouts starts an election.
  /// `executable` defaults to `etcd` on the `PATH`, then `/usr/bin/etcd`. If another program
  /// took a chosen port first, the cluster starts again on new ports, up to three times.
  ///
  /// The folder is made in the temporary folder (`TMPDIR`, else `/tmp`). Each member
  /// preallocates and syncs 128 MB of write-ahead log there at its first start, most of the
  /// start's time on a disk; with `TMPDIR=/dev/shm` (memory) a start takes about a quarter of it.
  ///
  /// ```swift
  /// let cluster = try await EtcdCluster.start(members: 3, timeout: .seconds(20))
  /// ```
  public static func start(
    members count: Int = 3, timeout: Duration = .seconds(30),
    heartbeatInterval: Duration = .milliseconds(50),
    electionTimeout: Duration = .milliseconds(500), executable: String? = nil
  ) async throws(EtcdClusterError) -> EtcdCluster {
    precondition(count > 0, "an etcd cluster needs at least one member")
    let executable = try EtcdProcess.executable(executable)
    var attempt = 0
    while true {
      attempt += 1
      let cluster = EtcdCluster(
        executable: executable, directory: try makeDirectory(),
        ports: try EtcdProcess.freePorts(2 * count), heartbeatInterval: heartbeatInterval,
        electionTimeout: electionTimeout)
      do throws(EtcdClusterError) {
        try cluster.launch()
        try await cluster.waitUntilAnswering(Array(cluster.members.indices), timeout: timeout)
        return cluster
      } catch {
        cluster.stop()
        if attempt < 3, case .memberExited(_, _, let log) = error,
          log.contains("address already in use")
        {
          continue
        }
        throw error
      }
    }
  }

  /// A new empty folder `racecheck-etcd-XXXXXX` in the temporary folder.
  private static func makeDirectory() throws(EtcdClusterError) -> String {
    let base = FileManager.default.temporaryDirectory.path
    var template = Array("\(base)/racecheck-etcd-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw .directoryFailed(path: base, errno: errno)
    }
    return String(cString: made)
  }

  /// Starts the watchdog, then every member.
  private func launch() throws(EtcdClusterError) {
    try state.withLock { (state: inout State) throws(EtcdClusterError) in
      let watchdog = try EtcdWatchdog.start(removing: directory)
      state.watchdog = watchdog
      for index in members.indices {
        state.statuses[index] = .running(pid: try spawn(index, group: watchdog.pid))
      }
    }
  }

  /// Starts member `index`'s process in the watchdog's process group.
  func spawn(_ index: Int, group: pid_t) throws(EtcdClusterError) -> pid_t {
    try EtcdProcess.spawn(
      executable, arguments: arguments[index], log: members[index].logFile, group: group,
      name: "etcd member \(members[index].name)")
  }

  /// The status of member `index`: running, paused or killed, with its pid.
  public func status(of member: Int) -> MemberStatus {
    state.withLock { $0.statuses[member] }
  }

  /// The pid of member `index`'s process, running or paused; nil when it is killed.
  public func pid(of member: Int) -> pid_t? {
    switch status(of: member) {
    case .running(let pid), .paused(let pid): pid
    case .killed: nil
    }
  }

  /// Lets `body` change member `index`'s status, given the watchdog's process group, under the lock.
  ///
  /// What `body` sets stays even if it then throws (a process it found ended is `killed`).
  /// Throws ``EtcdClusterError/clusterStopped`` once the cluster is stopped, without calling `body`.
  func change(
    _ index: Int,
    _ body: (inout MemberStatus, _ group: pid_t) throws(EtcdClusterError) -> Void
  ) throws(EtcdClusterError) {
    precondition(members.indices.contains(index), "no etcd member \(index)")
    try state.withLock { (state: inout State) throws(EtcdClusterError) in
      guard !state.isStopped, let watchdog = state.watchdog else { throw .clusterStopped }
      try body(&state.statuses[index], watchdog.pid)
    }
  }

  /// Kills every member (resuming the paused first), reaps them, and removes ``directory``.
  ///
  /// Calling it again does nothing. Every fault after it throws ``EtcdClusterError/clusterStopped``.
  public func stop() {
    state.withLock { state in
      guard !state.isStopped else { return }
      state.isStopped = true
      let pids = state.statuses.compactMap { status -> pid_t? in
        switch status {
        case .running(let pid): return pid
        case .paused(let pid):
          EtcdProcess.signal(pid, SIGCONT)
          return pid
        case .killed: return nil
        }
      }
      for pid in pids { EtcdProcess.signal(pid, SIGKILL) }
      for pid in pids { EtcdProcess.reap(pid) }
      state.statuses = state.statuses.map { _ in .killed }
      state.watchdog?.stop()
      state.watchdog = nil
    }
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Returns once every member in `indices` answers a health check, or throws when `timeout` passes.
  ///
  /// A member whose process ends meanwhile fails the wait at once, with the end of its log.
  func waitUntilAnswering(_ indices: [Int], timeout: Duration) async throws(EtcdClusterError) {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    let client = EtcdClient(endpoints: members.map(\.clientURL), timeout: .seconds(1))
    for index in indices {
      while true {
        try checkStillStarting(index)
        if Task.isCancelled { throw .cancelled }
        guard clock.now < deadline else {
          throw .memberNotAnswering(
            member: members[index].name, after: timeout,
            logTail: EtcdProcess.tail(of: members[index].logFile))
        }
        if (try? await client.isHealthy(member: index)) == true { break }
        try? await Task.sleep(for: .milliseconds(20))
      }
    }
  }

  /// Throws if member `index` is no longer starting: its process ended, or someone killed or stopped it.
  private func checkStillStarting(_ index: Int) throws(EtcdClusterError) {
    try state.withLock { (state: inout State) throws(EtcdClusterError) in
      guard !state.isStopped else { throw .clusterStopped }
      switch state.statuses[index] {
      case .killed:
        throw .memberNotRunning(member: members[index].name)
      case .running(let pid), .paused(let pid):
        if let ending = EtcdProcess.reapIfEnded(pid) {
          state.statuses[index] = .killed
          throw .memberExited(
            member: members[index].name, status: ending,
            logTail: EtcdProcess.tail(of: members[index].logFile))
        }
      }
    }
  }
}
