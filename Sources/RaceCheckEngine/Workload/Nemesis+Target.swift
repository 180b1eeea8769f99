import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Nemesis {
  /// A process a workload's ``Nemesis`` may pause or kill: one handed to it by process id, or one whose owner pauses, kills and restarts it.
  ///
  /// A nemesis touches only the processes it is given, and leaves each as it found it: a
  /// paused process is continued, and a killed one started again, before the workload ends.
  ///
  /// ```swift
  /// let server = Nemesis.Target(name: "server", pid: serverPID)                       // pauses only
  /// let member = Nemesis.Target(name: "etcd-2", pid: { cluster.pid(of: 2) }, restart: { try cluster.restart(2) })
  /// ```
  public struct Target: Sendable {
    /// The name reports and the history's faults give the process.
    public var name: String
    /// Stops the process, returning once it has stopped.
    let pause: @Sendable () throws -> Void
    /// Continues the paused process.
    let resume: @Sendable () throws -> Void
    /// Kills the process, returning once it is gone; nil when it cannot be started again, so it is never killed.
    let kill: (@Sendable () throws -> Void)?
    /// Starts the killed process again, returning once it runs.
    let restart: (@Sendable () throws -> Void)?

    /// A process handed by its id: a nemesis may pause it, but not kill it, since nothing could start it again.
    public init(name: String, pid: pid_t) {
      self.init(name: name, pid: { pid }, restart: nil)
    }

    /// A process whose owner says its current id and, if it can, starts it again after a kill.
    ///
    /// The nemesis pauses it with `SIGSTOP` (returning once every thread of it has stopped,
    /// so that it answers nothing after the fault's recorded start), continues it with
    /// `SIGCONT`, and kills it with `SIGKILL`.
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
      pause = {
        let process = try Self.running(pid(), name)
        try Self.send(SIGSTOP, to: process, name)
        Self.waitUntilStopped(process)
      }
      resume = { try Self.send(SIGCONT, to: try Self.running(pid(), name), name) }
      if restart != nil {
        kill = { try Self.send(SIGKILL, to: try Self.running(pid(), name), name) }
      } else {
        kill = nil
      }
      self.restart = restart
    }

    /// A process whose owner injects the faults itself, as a cluster that tracks its members' states does.
    ///
    /// - Parameters:
    ///   - name: The name reports give the process.
    ///   - pause: Stops the process, returning once it has stopped.
    ///   - resume: Continues it.
    ///   - kill: Kills it, returning once it is gone; nil when it cannot be started again.
    ///   - restart: Starts it again after a kill, returning once it runs.
    public init(
      name: String, pause: @escaping @Sendable () throws -> Void,
      resume: @escaping @Sendable () throws -> Void, kill: (@Sendable () throws -> Void)? = nil,
      restart: (@Sendable () throws -> Void)? = nil
    ) {
      self.name = name
      self.pause = pause
      self.resume = resume
      self.kill = restart == nil ? nil : kill
      self.restart = kill == nil ? nil : restart
    }

    /// A fault that could not be injected or healed.
    struct Failure: Error, CustomStringConvertible {
      var description: String
    }

    private static func running(_ pid: pid_t?, _ name: String) throws -> pid_t {
      guard let pid, pid > 0 else { throw Failure(description: "\(name) is not running") }
      return pid
    }

    private static func send(_ signal: Int32, to pid: pid_t, _ name: String) throws {
      guard Glibc.kill(pid, signal) == 0 else {
        throw Failure(description: "\(name) (pid \(pid)): \(String(cString: strerror(errno)))")
      }
    }

    /// Waits, a second at most, until every thread of `pid` is stopped: a thread the signal has not reached yet could still answer a request.
    private static func waitUntilStopped(_ pid: pid_t) {
      let deadline = MonotonicInstant.now() + .seconds(1)
      while MonotonicInstant.now() < deadline, !allThreadsStopped(pid) {
        usleep(200)
      }
    }

    /// Whether every thread of `pid` is in the stopped state, as `/proc/PID/task/*/stat` says (`T`); true when it cannot be read.
    static func allThreadsStopped(_ pid: pid_t) -> Bool {
      guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
      else { return true }
      return threads.allSatisfy { thread in
        guard
          let stat = try? String(
            contentsOfFile: "/proc/\(pid)/task/\(thread)/stat", encoding: .utf8),
          let afterName = stat.range(of: ") ", options: .backwards)
        else { return true }
        let state = stat[afterName.upperBound...].first
        return state == "T" || state == "t"
      }
    }
  }
}
