import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process a workload's ``Nemesis`` may pause or kill: one handed to it by process id, or one whose owner can say its id and start it again.
///
/// A nemesis touches only the processes it is given, and leaves each as it found it: a
/// paused process is continued, and a killed one started again, before the workload ends.
///
/// ```swift
/// let server = FaultTarget(name: "server", pid: serverPID)                       // pauses only
/// let member = FaultTarget(name: "etcd-2", pid: { cluster.pid(of: 2) }, restart: { try cluster.restart(2) })
/// ```
public struct FaultTarget: Sendable {
  /// The name reports and the history's faults give the process.
  public var name: String
  /// The process's current id, or nil while it is not running; a restart may change it.
  let currentPID: @Sendable () -> pid_t?
  /// Starts the process again after a kill, returning once it runs; nil when it cannot be, so it is never killed.
  let restart: (@Sendable () throws -> Void)?

  /// A process handed by its id: a nemesis may pause it, but not kill it, since nothing could start it again.
  public init(name: String, pid: pid_t) {
    self.name = name
    currentPID = { pid }
    restart = nil
  }

  /// A process whose owner says its current id and, if it can, starts it again after a kill.
  ///
  /// - Parameters:
  ///   - name: The name reports give the process.
  ///   - pid: Returns the process's current id, or nil while it is not running.
  ///   - restart: Starts the process again, returning once it runs; nil when it cannot be, so a nemesis only pauses it.
  public init(
    name: String, pid: @escaping @Sendable () -> pid_t?,
    restart: (@Sendable () throws -> Void)? = nil
  ) {
    self.name = name
    currentPID = pid
    self.restart = restart
  }

  /// Sends `signal` to the process, if it runs; false when it does not.
  func send(_ signal: Int32) -> Bool {
    guard let pid = currentPID(), pid > 0 else { return false }
    return kill(pid, signal) == 0
  }
}
