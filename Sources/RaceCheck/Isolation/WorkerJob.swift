import Foundation

/// What an isolated child is asked to check, passed to it in its environment.
package struct WorkerJob: Codable, Sendable {
  /// The environment variable that holds the job, as JSON; its presence puts a program in worker mode.
  package static let environmentKey = "RACECHECK_WORKER_JOB"
  /// The child's descriptor for messages to the parent.
  package static let messagesDescriptor: Int32 = 3
  /// The child's descriptor for crash and stack records.
  package static let reportDescriptor: Int32 = 4
  /// The child's descriptor for the flight recorder's shared memory.
  package static let recorderDescriptor: Int32 = 5

  /// The target to check.
  package var target: String
  /// How to check it.
  package var configuration: Configuration
  /// A scenario to run as is, `configuration.invocations` times, instead of a check; nil for a check.
  package var scenario: Scenario? = nil
  /// The index the scenario had in the run it came from, which seeds its schedules in schedule mode.
  package var scenarioIndex: Int = 0
  /// In schedule mode, the schedule of the scenario whose trace the child streams as it runs.
  package var tracedSchedule: Int? = nil
  /// The source location of the `check` call to run, when the child is a re-launched test binary.
  ///
  /// A test may check the same spec at several places; only the call at this location
  /// becomes the worker, and the others return at once.
  package var callSite: String? = nil

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
