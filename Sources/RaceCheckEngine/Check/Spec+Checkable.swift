extension Spec: Checkable {
  /// The spec itself: a spec is the checkable it checks.
  public var spec: Spec<Subject, Model> { self }

  /// The session of one check: in a worker child when `worker` names one, else in this process.
  func session(
    _ configuration: Configuration, worker: WorkerCommand?, interruption: Interruption?,
    progress: ProgressSink?
  ) -> CheckSession<Subject, Model> {
    let configuration = isExploration ? configuration.exploringABody : configuration
    let runner: any ScenarioRunning =
      if let worker, configuration.isolated {
        IsolatedRunner(
          command: worker, target: name, configuration: configuration,
          callTimeouts: callTimeouts, interruption: interruption)
      } else {
        makeRunner(configuration, observer: nil, interruption: interruption)
      }
    return CheckSession(
      spec: self, configuration: configuration, runner: runner, interruption: interruption,
      progress: progress)
  }

  /// The in-process runner of `configuration`'s mode, reporting its progress to `observer`; a stress runner stops early when `interruption` fires.
  func makeRunner(
    _ configuration: Configuration, observer: (any RunObserver)?, interruption: Interruption?
  ) -> any ScenarioRunning {
    let runner: any ScenarioRunning =
      if let settings = configuration.scheduleSettings {
        ScheduleScenarioRunner(spec: self, settings: settings, observer: observer)
      } else {
        StressScenarioRunner(
          spec: self, observer: observer, shouldStop: { interruption?.signal != nil })
      }
    guard usesMainThread else { return runner }
    return MainThreadRunner(runner, startsThreadZeroItself: configuration.scheduleSettings != nil)
  }

  /// The timeout of each operation that has one (an `async` or completion-handler call), by name.
  var callTimeouts: [String: Duration] {
    Dictionary(
      operations.compactMap { operation in operation.callTimeout.map { (operation.name, $0) } },
      uniquingKeysWith: min)
  }

  /// Says what makes the spec unusable before anything runs, or nil when it is sound.
  func validationError() -> String? {
    guard !operations.isEmpty else { return "the spec '\(name)' has no operations" }
    if operations.allSatisfy(\.runsOnMainThread) {
      return "every operation of '\(name)' runs on the main thread, so threads other than thread 0 "
        + "have nothing to run: leave at least one off it, or check with one thread"
    }
    var names = Set<String>()
    for operation in operations {
      guard names.insert(operation.name).inserted else {
        return "the spec '\(name)' has two operations named '\(operation.name)'"
      }
      let arguments = operation.firstArguments
      if let problem = operation.validate(arguments) {
        return "operation '\(operation.name)' of '\(name)': \(problem)"
      }
      if let requirement = operation.requirement, (try? requirement(model, arguments)) == nil {
        return "operation '\(operation.name)' of '\(name)': the parameters of its requirement "
          + "do not fit its arguments \(Value.list(arguments)): give it the model, then one "
          + "parameter per generator"
      }
    }
    return nil
  }
}

/// How reports show a model's state.
enum ModelDescription {
  static func describe<Model>(_ model: Model) -> String {
    if let model = model as? any HistoryModel { return model.state.description }
    return String(describing: model)
  }
}
