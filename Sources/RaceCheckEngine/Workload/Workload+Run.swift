extension Workload {
  /// Runs the clients (and the nemesis) until the limit, then checks the history; throws when the spec or settings cannot make a workload.
  ///
  /// ```swift
  /// let report = try Workload(
  ///   spec, configuration: Configuration.Workload(clients: 10, limit: .operations(5_000))
  /// ).run()
  /// ```
  public func run() throws(WorkloadError) -> WorkloadReport {
    try run(interruption: nil, progress: nil)
  }

  /// Runs the workload, stopping its clients early when `interruption` fires, and checks what was recorded.
  ///
  /// The check after an interruption runs on: only a second signal stops it, with `unknown`.
  ///
  /// - Parameters:
  ///   - interruption: Stops the clients when it fires, and the check at the next signal.
  ///   - progress: Told how far the clients got, a few times a second.
  ///   - recorded: Given the history before it is checked.
  /// - Returns: The history and the check's verdict on it.
  /// - Throws: ``WorkloadError`` when the spec or settings cannot make a workload.
  package func run(
    interruption: Interruption?, progress: (@Sendable (WorkloadProgress) -> Void)?,
    recorded: (@Sendable (RecordedHistory) -> Void)? = nil
  ) throws(WorkloadError) -> WorkloadReport {
    try validate()
    let run = WorkloadRun(self)
    let (history, elapsed) = run.perform(interruption: interruption, progress: progress)
    recorded?(history)
    let stoppedBy = interruption?.signal
    let signalsBeforeCheck = interruption?.count ?? 0
    var checker = HistoryChecker(timeout: configuration.checkTimeout, partitions: true)
    if let interruption {
      checker.isInterrupted = { interruption.count > signalsBeforeCheck }
    }
    let verdict: HistoryVerdict
    do {
      verdict = try checker.check(history)
    } catch {
      // The history is recorded from the spec's own vocabulary operations, validated above.
      preconditionFailure("a workload recorded a history its model rejects: \(error)")
    }
    return WorkloadReport(
      name: spec.name, clients: configuration.clients, history: history, verdict: verdict,
      elapsed: elapsed,
      stoppedBy: stoppedBy)
  }

  /// Says why the spec or settings cannot make a workload.
  func validate() throws(WorkloadError) {
    func fail(_ problem: WorkloadError.Problem) -> WorkloadError {
      WorkloadError(problem, workload: spec.name)
    }
    let clients = configuration.clients
    let limit = configuration.limit
    let operationTimeout = configuration.operationTimeout
    guard clients >= 1 else { throw fail(.noClients(clients)) }
    switch limit {
    case .duration(let duration) where duration <= .zero: throw fail(.emptyLimit(limit))
    case .operations(let count) where count < 1: throw fail(.emptyLimit(limit))
    default: break
    }
    guard operationTimeout > .zero else {
      throw fail(.notPositive(what: "the operation timeout", operationTimeout))
    }
    guard !spec.operations.isEmpty else { throw fail(.noOperations) }
    for operation in spec.operations {
      guard let name = operation.vocabularyName, Model.vocabulary.contains(name) else {
        throw fail(
          .notVocabulary(
            operation: operation.name, model: Model.name, vocabulary: Model.vocabulary))
      }
      if operation.runsOnMainThread { throw fail(.onMainThread(operation: operation.name)) }
    }
    for (name, weight) in configuration.weights
    where weight < 1 || !spec.operations.contains(where: { $0.name == name }) {
      throw fail(.badWeight(operation: name, weight))
    }
    try configuration.nemesis?.validate(workload: spec.name)
  }
}
