/// The model states the orders of a scenario's columns can reach, for reasoning about operations' requirements.
///
/// A node is how far each thread has got; its states are those of every order of the
/// calls before it that keeps each call's requirement (a call made where its
/// requirement fails would have trapped there). Nodes are visited level by level, each
/// after all of its predecessors.
struct ModelInterleavings<Subject, Model: Hashable & Sendable> {
  let spec: Spec<Subject, Model>

  /// The most nodes an exploration visits; past it, the question is left unanswered.
  static var nodeLimit: Int { 20_000 }

  /// The state after `calls` run in order from `state`, or nil when one of them is invalid where it runs.
  func state(after calls: ArraySlice<Scenario.Call>, from state: Model) -> Model? {
    var state = state
    for call in calls {
      guard isValid(call, in: state) else { return nil }
      apply(call, to: &state)
    }
    return state
  }

  /// Whether `call` is valid in `state`.
  func isValid(_ call: Scenario.Call, in state: Model) -> Bool {
    spec.operation(named: call.operation)?.isValid(call.arguments, in: state) ?? true
  }

  /// Applies the model side of `call` to `state`.
  private func apply(_ call: Scenario.Call, to state: inout Model) {
    _ = spec.operation(named: call.operation)?.bind(call.arguments)(&state)
  }

  /// How an exploration ended.
  enum Ending: Hashable {
    /// The visitor stopped it at a node.
    case visitorStopped
    /// A call was invalid on the way, and the caller asked to stop there.
    case invalidCall
    /// Every node was visited.
    case exhausted
    /// The nodes were more than ``nodeLimit``: nothing is known.
    case tooLarge
  }

  /// Visits every node from `initial` whose position each thread's range allows, with its states.
  ///
  /// - Parameters:
  ///   - initial: The states the threads start from.
  ///   - columns: The threads' calls.
  ///   - ranges: How far each thread may have got at a visited node.
  ///   - stopsAtInvalidCall: Whether a call that is invalid in a state it can be reached
  ///     in ends the exploration; otherwise the orders through it are dropped.
  ///   - visit: Called with each visited node and its states; returning true ends the
  ///     exploration.
  /// - Returns: How the exploration ended.
  func explore(
    from initial: Set<Model>, columns: [[Scenario.Call]], ranges: [ClosedRange<Int>],
    stopsAtInvalidCall: Bool = false, visit: ([Int], Set<Model>) -> Bool = { _, _ in false }
  ) -> Ending {
    var level: [[Int]: Set<Model>] = [Array(repeating: 0, count: columns.count): initial]
    var visited = 0
    while !level.isEmpty {
      var next: [[Int]: Set<Model>] = [:]
      for (position, states) in level {
        visited += 1
        if visited > Self.nodeLimit { return .tooLarge }
        if zip(position, ranges).allSatisfy({ $1.contains($0) }), visit(position, states) {
          return .visitorStopped
        }
        for thread in columns.indices
        where position[thread] < min(columns[thread].count, ranges[thread].upperBound) {
          let call = columns[thread][position[thread]]
          var successor = position
          successor[thread] += 1
          for state in states {
            guard isValid(call, in: state) else {
              if stopsAtInvalidCall { return .invalidCall }
              continue
            }
            var after = state
            apply(call, to: &after)
            next[successor, default: []].insert(after)
          }
        }
      }
      level = next
    }
    return .exhausted
  }

  /// The states every order of all of `columns` can end in, from `initial`; nil when they are too many to explore.
  func finalStates(from initial: Set<Model>, columns: [[Scenario.Call]]) -> Set<Model>? {
    let ends = columns.map(\.count)
    var states: Set<Model> = []
    let ending = explore(
      from: initial, columns: columns, ranges: ends.map { $0...$0 },
      visit: { position, reached in
        if position == ends { states = reached }
        return false
      })
    return ending == .tooLarge ? nil : states
  }
}
