import Foundation

/// What an isolated child serves, passed to it in its environment; its check's configuration, then the requests, come on its requests channel.
///
/// The configuration is not part of the job, so that a worker can start before a check is
/// ready for it (see ``WorkerPool``): the job names only what a worker must know as it starts,
/// the target and, in a test binary, the `check` call to stop at.
package struct WorkerJob: Codable, Hashable, Sendable {
  /// The environment variable that holds the job, as JSON; its presence puts a program in worker mode.
  package static let environmentKey = "RACECHECK_WORKER_JOB"
  /// The child's descriptor for messages to the parent.
  package static let messagesDescriptor: Int32 = 3
  /// The child's descriptor for crash and stack records.
  package static let reportDescriptor: Int32 = 4
  /// The child's descriptor for the flight recorder's shared memory.
  package static let recorderDescriptor: Int32 = 5
  /// The child's descriptor for its configuration, then requests from the parent, one JSON line each.
  package static let requestsDescriptor: Int32 = 6

  /// The target to run.
  package var target: String
  /// The source location of the `check` call to serve, when the child is a re-launched test binary.
  ///
  /// A test may check the same spec at several places; only the call at this location
  /// becomes the worker, and the others return at once.
  package var callSite: String? = nil
  /// The parent's process id: the child ends itself when its parent is gone.
  package var parent: Int32 = 0

  /// The job of a worker that `command` starts to check `target` for this process.
  package init(target: String, command: WorkerCommand) {
    self.target = target
    callSite = command.callSite
    parent = getpid()
  }

  /// The job this process was started with, or nil when it is not a worker.
  static var current: WorkerJob? {
    guard let text = ProcessInfo.processInfo.environment[environmentKey] else { return nil }
    return try? JSONDecoder().decode(WorkerJob.self, from: Data(text.utf8))
  }

  /// The job as the environment variable's value, its keys sorted so that the same job is always the same text.
  var environmentValue: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }
}
