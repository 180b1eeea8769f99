/// Something racecheck can check, isolate and replay: a type that gives the ``Spec`` it checks.
///
/// Every ``Spec`` is one, its ``spec`` itself. A type of your own conforms by giving its
/// spec, and gets what a spec gets: `check(_:configuration:)` from a test (in an isolated
/// child, with `RACECHECK_SEED` replay), ``check(_:)`` in this process, and a ``Target`` of
/// a ``CommandLineDriver`` (`run` and `demo` in an isolated child, progress, interruption,
/// repro files and `replay`). A type suits a family of checks that differ by a parameter:
///
/// ```swift
/// struct SafeArrayCheck: Checkable {
///   var largest: Int
///
///   var spec: Spec<SafeArray<Int>, ArrayModel> {
///     Spec("SafeArray-\(largest)", make: SafeArray<Int>.init, model: ArrayModel()) {
///       Operation("get", .int(in: 0...largest)) { (array: SafeArray<Int>, index: Int) in
///         array.element(at: index)
///       }
///       Operation("append", .int(in: 0...largest)) { (array: SafeArray<Int>, value: Int) in
///         array.append(value)
///       }
///     }
///   }
/// }
///
/// @Test func safeArrayIsLinearizable() {
///   check(SafeArrayCheck(largest: 4))
/// }
/// ```
///
/// Every capability goes through ``spec``, and the spec's name is the checkable's: it names
/// the reports and the repro files, and the target a worker child and `replay` look up. Put
/// a parameter in the name, as above, so that the checks of a family differ by name.
public protocol Checkable: Sendable {
  /// The type the spec checks.
  associatedtype Subject
  /// The spec's model.
  associatedtype Model: Hashable & Sendable

  /// The spec every check, worker child and replay of this checkable runs.
  ///
  /// Give the same spec each time it is asked: a worker child and a replay ask their own
  /// value of the type for it, and run what it gives under the name the check recorded.
  var spec: Spec<Subject, Model> { get }
}

extension Checkable {
  /// The name reports, repro files and the command line use: the spec's.
  public var name: String { spec.name }

  /// Runs scenarios in this process until one fails or the budget is spent, and reports what was found.
  ///
  /// Whatever ``Configuration/isolated`` says, this check runs in this process and records
  /// nothing in a test: for a test, call `check(_:configuration:)`, which checks in an isolated child.
  ///
  /// ```swift
  /// let report = SafeArrayCheck(largest: 4).check(Configuration(seed: 1))
  /// ```
  public func check(_ configuration: Configuration) -> CheckReport {
    check(configuration, worker: nil, interruption: nil, progress: nil)
  }

  /// Checks, in a child started by `worker` when the configuration is isolated and `worker` is not nil, stopping early when `interruption` fires and telling `progress` how far it got.
  package func check(
    _ configuration: Configuration, worker: WorkerCommand?, interruption: Interruption?,
    progress: ProgressSink?
  ) -> CheckReport {
    let spec = spec
    return ChecksInThisProcess.oneAtATime {
      spec.session(configuration, worker: worker, interruption: interruption, progress: progress)
        .run()
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

  /// Runs a repro file's scenario again, in a child started by `worker` unless it is nil, until its failure shows or `timeLimit` runs out.
  package func replay(
    _ repro: Repro, timeLimit: Duration, worker: WorkerCommand?, interruption: Interruption?,
    progress: ProgressSink?
  ) throws(ReproError) -> ReplayReport {
    let spec = spec
    guard repro.target == spec.name else {
      throw .wrongTarget(path: "", recorded: repro.target, expected: spec.name)
    }
    do {
      _ = try PreparedScenario(repro.scenario, spec: spec)
    } catch {
      throw .scenarioMismatch(path: "", error)
    }
    var configuration = repro.configuration
    if repro.schedule != nil, configuration.scheduleSettings == nil {
      configuration.scheduleSettings = ScheduleSettings()
    }
    // Whatever the failure was, the replayed scenario may now crash or hang instead: with a
    // worker, it runs in a child as `run` does, even when the run that recorded it did not.
    if worker != nil { configuration.isolated = true }
    return spec.session(
      configuration, worker: worker, interruption: interruption, progress: progress
    )
    .replay(repro, timeLimit: timeLimit)
  }

  /// A history of this checkable as a history file holds it: under a built-in model's name (``HistoryModel``) with its initial state, each operation by the model's name for it; else under the spec's name.
  ///
  /// An operation the spec names after the subject's method (`Operation("store", as:
  /// "write", …)`) is the model's `write` in the file, so that `racecheck check` reads it.
  package func recordedHistory(_ history: History) -> RecordedHistory {
    let spec = spec
    guard let model = spec.model as? any HistoryModel else {
      return RecordedHistory(history, model: spec.name, initial: nil)
    }
    var vocabulary = history
    for index in vocabulary.operations.indices {
      let operation = spec.operation(named: vocabulary.operations[index].name)
      if let vocabularyName = operation?.vocabularyName {
        vocabulary.operations[index].name = vocabularyName
      }
    }
    return RecordedHistory(vocabulary, model: type(of: model).name, initial: model.state)
  }
}
