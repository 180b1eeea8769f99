import Foundation

/// What an isolated child serves, passed to it in its environment; the requests themselves come on a pipe.
package struct WorkerJob: Codable, Sendable {
  /// The environment variable that holds the job, as JSON; its presence puts a program in worker mode.
  package static let environmentKey = "RACECHECK_WORKER_JOB"
  /// The child's descriptor for messages to the parent.
  package static let messagesDescriptor: Int32 = 3
  /// The child's descriptor for crash and stack records.
  package static let reportDescriptor: Int32 = 4
  /// The child's descriptor for the flight recorder's shared memory.
  package static let recorderDescriptor: Int32 = 5
  /// The child's descriptor for requests from the parent, one JSON line each.
  package static let requestsDescriptor: Int32 = 6

  /// The target to run.
  package var target: String
  /// The check's configuration: its mode and schedule settings.
  package var configuration: Configuration
  /// The source location of the `check` call to serve, when the child is a re-launched test binary.
  ///
  /// A test may check the same spec at several places; only the call at this location
  /// becomes the worker, and the others return at once.
  package var callSite: String? = nil
  /// The parent's process id: the child ends itself when its parent is gone.
  package var parent: Int32 = 0

  /// The job this process was started with, or nil when it is not a worker.
  static var current: WorkerJob? {
    guard let text = ProcessInfo.processInfo.environment[environmentKey] else { return nil }
    return try? JSONDecoder().decode(WorkerJob.self, from: Data(text.utf8))
  }

  /// The job as the environment variable's value.
  var environmentValue: String {
    (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }
}
