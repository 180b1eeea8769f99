#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The faults a nemesis injects, one member at a time. Each signal is sent under the cluster's
// lock, so that a fault never races `stop()` or another fault on the same member.

extension EtcdCluster {
  /// Stops member `member`'s process with SIGSTOP and returns once it has stopped: it holds its connections but answers nothing.
  ///
  /// Pausing a paused member does nothing; pausing a killed one throws, and so does pausing one
  /// whose process has ended by itself (it is then killed). The other members see it as
  /// unreachable; its clients' requests wait (and time out) until ``resume(_:)``.
  ///
  /// ```swift
  /// try cluster.pause(2)
  /// ```
  public func pause(_ member: Int) throws(EtcdClusterError) {
    try change(member) { (status: inout MemberStatus, _) throws(EtcdClusterError) in
      switch status {
      case .running(let pid):
        EtcdProcess.signal(pid, SIGSTOP)
        if let ending = EtcdProcess.waitUntilStopped(pid) {
          status = .killed
          throw .memberExited(
            member: members[member].name, status: ending,
            logTail: EtcdProcess.tail(of: members[member].logFile))
        }
        status = .paused(pid: pid)
      case .paused: break
      case .killed: throw .memberNotRunning(member: members[member].name)
      }
    }
  }

  /// Continues a paused member with SIGCONT; resuming a running member does nothing, a killed one throws.
  ///
  /// Requests that reached it while it was paused are answered now, in the order they came.
  public func resume(_ member: Int) throws(EtcdClusterError) {
    try change(member) { (status: inout MemberStatus, _) throws(EtcdClusterError) in
      switch status {
      case .paused(let pid):
        // Unlike SIGSTOP, SIGCONT takes effect before `kill` returns: every thread is runnable.
        EtcdProcess.signal(pid, SIGCONT)
        status = .running(pid: pid)
      case .running: break
      case .killed: throw .memberNotRunning(member: members[member].name)
      }
    }
  }

  /// Kills member `member`'s process with SIGKILL, paused or not, and reaps it; its data folder stays.
  ///
  /// Killing a killed member does nothing.
  public func kill(_ member: Int) throws(EtcdClusterError) {
    try change(member) { (status: inout MemberStatus, _) throws(EtcdClusterError) in
      switch status {
      case .running(let pid), .paused(let pid):
        EtcdProcess.signal(pid, SIGKILL)
        EtcdProcess.reap(pid)
        status = .killed
      case .killed: break
      }
    }
  }

  /// Starts a killed member again on its ports and data folder, and returns once it answers.
  ///
  /// It rejoins the cluster with the data it had, and catches up on what it missed from the
  /// leader. A member that does not answer within `timeout` is left running (``stop()`` ends
  /// it) and the error has the end of its log.
  ///
  /// ```swift
  /// try cluster.kill(0)
  /// try await cluster.restart(0)
  /// ```
  public func restart(_ member: Int, timeout: Duration = .seconds(10))
    async throws(EtcdClusterError)
  {
    try change(member) { (status: inout MemberStatus, group: pid_t) throws(EtcdClusterError) in
      guard case .killed = status else { throw .memberRunning(member: members[member].name) }
      status = .running(pid: try spawn(member, group: group))
    }
    try await waitUntilAnswering([member], timeout: timeout)
  }
}
