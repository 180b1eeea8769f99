extension Spec: SessionCheckable {
  public func check(_ configuration: Configuration) -> CheckReport {
    check(configuration, worker: nil, interruption: nil, progress: nil)
  }

  package func check(
    _ configuration: Configuration, worker: WorkerCommand?, interruption: Interruption?,
    progress: ProgressSink?
  ) -> CheckReport {
    ChecksInThisProcess.oneAtATime {
      session(configuration, worker: worker, interruption: interruption, progress: progress).run()
    }
  }

  /// Runs a repro file's scenario again in this process: its recorded schedule once, or until its failure shows or `timeLimit` runs out.
  ///
  /// ```swift
  /// let report = try spec.replay(try Repro.read(from: path))
  /// ```
  package func replay(_ repro: Repro, timeLimit: Duration = .seconds(30)) throws(ReproError)
    -> ReplayReport
  {
    try replay(repro, timeLimit: timeLimit, worker: nil, interruption: nil, progress: nil)
  }

  package func replay(
    _ repro: Repro, timeLimit: Duration, worker: WorkerCommand?, interruption: Interruption?,
    progress: ProgressSink?
  ) throws(ReproError) -> ReplayReport {
    guard repro.target == name else {
      throw .wrongTarget(path: "", recorded: repro.target, expected: name)
    }
    do {
      _ = try PreparedScenario(repro.scenario, spec: self)
    } catch {
      throw .scenarioMismatch(path: "", error)
    }
    var configuration = repro.configuration
    if repro.schedule != nil, configuration.schedule == nil {
      configuration.schedule = ScheduleSettings()
    }
    // Whatever the failure was, the replayed scenario may now crash or hang instead: with a
    // worker, it runs in a child as `run` does, even when the run that recorded it did not.
    if worker != nil { configuration.isolated = true }
    return session(configuration, worker: worker, interruption: interruption, progress: progress)
      .replay(repro, timeLimit: timeLimit)
  }

  /// The session of one check: in a worker child when `worker` names one, else in this process.
  private func session(
    _ configuration: Configuration, worker: WorkerCommand?, interruption: Interruption?,
    progress: ProgressSink?
  ) -> CheckSession<Subject, Model> {
    let runner: any ScenarioRunning =
      if let worker, configuration.isolated {
        IsolatedRunner(
          command: worker, target: name, configuration: configuration, interruption: interruption)
      } else {
        makeRunner(configuration, observer: nil, interruption: interruption)
      }
    return CheckSession(
      spec: self, configuration: configuration, runner: runner, interruption: interruption,
      progress: progress)
  }

  /// Names a built-in model (``HistoryModel``) with its initial state; a spec's own model by the spec's name.
  package func recordedHistory(_ history: History) -> RecordedHistory {
    guard let model = model as? any HistoryModel else {
      return RecordedHistory(history, model: name, initial: nil)
    }
    return RecordedHistory(history, model: type(of: model).name, initial: model.state)
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
      var random: any RandomNumberGenerator = SplitMix64(seed: 0)
      let arguments = operation.generators.map { $0.draw(&random, 1) }
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
