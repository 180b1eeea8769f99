import Foundation

/// How to start a worker child: the program, its arguments and, for a test binary, the `check` call it must reach.
package struct WorkerCommand: Sendable, Hashable {
  /// The program to start in worker mode.
  package var executable: String
  /// Its arguments: none for `racecheck`, the current test's selection for a test binary.
  package var arguments: [String]
  /// The location of the `check` call the child must run, when it is a re-launched test binary.
  package var callSite: String?
  /// Where the workers come from, with their spares: the process's pool unless a test wants its own.
  ///
  /// Not part of the command's identity: two commands that start the same program alike are equal.
  package var pool: WorkerPool

  /// Creates a command; the default is this program with no arguments, its workers from the process's pool.
  package init(
    executable: String = WorkerCommand.currentExecutable, arguments: [String] = [],
    callSite: String? = nil, pool: WorkerPool = .shared
  ) {
    self.executable = executable
    self.arguments = arguments
    self.callSite = callSite
    self.pool = pool
  }

  package static func == (left: WorkerCommand, right: WorkerCommand) -> Bool {
    left.executable == right.executable && left.arguments == right.arguments
      && left.callSite == right.callSite
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(executable)
    hasher.combine(arguments)
    hasher.combine(callSite)
  }

  /// The absolute path of the running program.
  package static var currentExecutable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }

  /// Why a child that exited cleanly without a word did not serve the check.
  var neverStartedMessage: String {
    let started = ([executable] + arguments).joined(separator: " ")
    let cause =
      callSite.map {
        "the test binary, started again as `\(started)`, did not reach the check at \($0)"
      } ?? "\(started) does not run racecheck workers"
    return "the isolated child exited without checking: \(cause); "
      + "set `Configuration.isolated` to false to check in this process"
  }
}
