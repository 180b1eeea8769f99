import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The child's main: runs the job from its environment and exits, when this process is a worker.
package enum IsolatedWorker {
  /// Runs the worker job and exits if this process was started as a worker; returns otherwise.
  ///
  /// Call it first thing in a program that offers isolation, before anything else starts threads.
  package static func runIfRequested(targets: [Target]) {
    guard let job = currentJob() else { return }
    guard let target = targets.first(where: { $0.name == job.target }),
      let isolatable = target.checkable as? any IsolatedCheckable
    else {
      Console.printError("racecheck worker: no target '\(job.target)' in this program")
      exit(70)
    }
    run(job, on: isolatable)
  }

  /// The job this process was started for, nil when it is not a worker; exits when the job cannot be read.
  package static func currentJob() -> WorkerJob? {
    guard ProcessInfo.processInfo.environment[WorkerJob.environmentKey] != nil else { return nil }
    guard let job = WorkerJob.current else {
      Console.printError("racecheck worker: the job in \(WorkerJob.environmentKey) cannot be read")
      exit(70)
    }
    return job
  }

  /// Runs `job` on `checkable` with the crash handler installed, reporting through the parent's descriptors, then exits.
  package static func run(_ job: WorkerJob, on checkable: any IsolatedCheckable) -> Never {
    do {
      let recorder = try FlightRecorder(mappingFileDescriptor: WorkerJob.recorderDescriptor)
      try CrashCapture.install(reportingTo: WorkerJob.reportDescriptor, flightRecorder: recorder)
      let link = WorkerLink(recorder: recorder, messages: WorkerJob.messagesDescriptor)
      if let scenario = job.scenario {
        checkable.run(scenario, job: job, link: link)
      } else {
        link.send(.report(checkable.check(job.configuration, link: link)))
      }
      exit(0)
    } catch {
      Console.printError("racecheck worker: \(error)")
      exit(70)
    }
  }
}

/// A checkable that can run in an isolated child; every ``Spec`` is one.
package protocol IsolatedCheckable {
  /// Checks as ``Checkable/check(_:)`` does, announcing scenarios and operations through `link`.
  func check(_ configuration: Configuration, link: WorkerLink) -> CheckReport

  /// Runs `scenario` `job.configuration.invocations` times, announcing it through `link`.
  ///
  /// In schedule mode it explores up to that many of the scenario's schedules, with the
  /// strategy seeded as for scenario `job.scenarioIndex` of the configuration's run, and
  /// streams the trace of `job.tracedSchedule`.
  func run(_ scenario: Scenario, job: WorkerJob, link: WorkerLink)

  /// The array model's elements after `calls` from the initial state, or nil when the model is not an array or a call does not fit.
  func arrayElements(after calls: [Scenario.Call]) -> [Value]?
}

extension Spec: IsolatedCheckable {
  package func check(_ configuration: Configuration, link: WorkerLink) -> CheckReport {
    if configuration.schedule != nil {
      return ScheduleCheck(spec: self, configuration: configuration, link: link).run()
    }
    return StressCheck(spec: self, configuration: configuration, link: link).run()
  }

  package func run(_ scenario: Scenario, job: WorkerJob, link: WorkerLink) {
    var configuration = job.configuration
    if var settings = configuration.schedule {
      settings.schedulesPerScenario = min(settings.schedulesPerScenario, configuration.invocations)
      configuration.schedule = settings
      var check = ScheduleCheck(spec: self, configuration: configuration, link: link)
      check.tracedSchedule = job.tracedSchedule
      let seed = ScheduleCheck<Subject, Model>.strategySeed(
        configuration.effectiveSeed(forSpecNamed: name), scenarioIndex: job.scenarioIndex)
      _ = try? check.explore(scenario, seed: seed, stopAtFirstFailure: false)
      return
    }
    guard let prepared = try? PreparedScenario(scenario, spec: self) else { return }
    let runner = StressRunner(spec: self, threads: max(1, scenario.parallel.count), link: link)
    defer { runner.shutDown() }
    _ = try? runner.run(prepared, invocations: configuration.invocations, stopAtFirstFailure: false)
  }

  package func arrayElements(after calls: [Scenario.Call]) -> [Value]? {
    guard var array = model as? ArrayModel else { return nil }
    for call in calls {
      guard let step = try? ArrayModel.step(call.operation, call.arguments) else { return nil }
      _ = array.apply(step)
    }
    return array.elements
  }
}
