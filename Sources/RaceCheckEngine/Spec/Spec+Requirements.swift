extension Spec {
  /// Whether some operation states when it is valid (``Operation/requires(_:)``).
  var hasRequirements: Bool {
    operations.contains { $0.requirement != nil }
  }

  /// Whether `call`, drawn for `path` of `scenario` (whose later calls are not drawn yet), is valid in every order that can reach it.
  ///
  /// For a thread's call, the orders are those of the threads drawn so far; a later
  /// thread is checked against this one when it is drawn. When the orders are too many
  /// to explore, the call is accepted.
  func accepts(_ call: Scenario.Call, at path: Scenario.CallPath, of scenario: Scenario) -> Bool {
    let orders = ModelInterleavings(spec: self)
    switch path {
    case .initial(let index):
      guard let state = orders.state(after: scenario.initial.prefix(index), from: model) else {
        return true
      }
      return orders.isValid(call, in: state)
    case .parallel(let thread, let index):
      guard let start = orders.state(after: scenario.initial[...], from: model) else {
        return true
      }
      var columns = Array(scenario.parallel.prefix(thread))
      let drawn = scenario.parallel.indices.contains(thread) ? scenario.parallel[thread] : []
      columns.append(Array(drawn.prefix(index)) + [call])
      return orders.explore(
        from: [start], columns: columns, ranges: columns.map { 0...$0.count },
        stopsAtInvalidCall: true) != .invalidCall
    case .post(let index):
      guard let start = orders.state(after: scenario.initial[...], from: model),
        let ends = orders.finalStates(from: [start], columns: scenario.parallel)
      else { return true }
      return ends.allSatisfy { end in
        orders.state(after: scenario.post.prefix(index), from: end).map {
          orders.isValid(call, in: $0)
        } ?? true
      }
    }
  }

  /// Whether every call of `scenario` is valid in every order that reaches it, as every call the generator draws is.
  ///
  /// Shrinking tries only such scenarios: dropping a call can leave a later one invalid
  /// (a subscript past the end once an append is gone), and a candidate that traps by
  /// contract tests nothing while each of its excused traps costs a fresh child.
  func acceptsEveryCall(of scenario: Scenario) -> Bool {
    guard hasRequirements else { return true }
    return scenario.callPaths.allSatisfy { accepts(scenario[$0], at: $0, of: scenario) }
  }

  /// Whether a trap in the call at `path` of `scenario` is the contract at work: some order of what had run leaves its requirement false.
  ///
  /// `inFlight` gives, for the threads that had a call in flight, that call's position in
  /// its column; such a call may or may not have taken effect. A thread with none may have
  /// got anywhere in its column. Orders in which a call that returned was invalid are
  /// left out: that call would have trapped instead. A call without a requirement, or an
  /// exploration too large to finish, is never excused.
  func allowsTrap(at path: Scenario.CallPath, of scenario: Scenario, inFlight: [Int: Int])
    -> Bool
  {
    let call = scenario[path]
    guard operation(named: call.operation)?.requirement != nil else { return false }
    let orders = ModelInterleavings(spec: self)
    let isInvalid = { (state: Model) in !orders.isValid(call, in: state) }
    switch path {
    case .initial(let index):
      return orders.state(after: scenario.initial.prefix(index), from: model).map(isInvalid)
        ?? false
    case .parallel(let thread, let index):
      guard let start = orders.state(after: scenario.initial[...], from: model) else {
        return false
      }
      let ranges = scenario.parallel.indices.map { other -> ClosedRange<Int> in
        if other == thread { return index...index }
        if let position = inFlight[other] { return position...(position + 1) }
        return 0...scenario.parallel[other].count
      }
      return orders.explore(
        from: [start], columns: scenario.parallel, ranges: ranges,
        visit: { _, states in states.contains(where: isInvalid) }) == .visitorStopped
    case .post(let index):
      guard let start = orders.state(after: scenario.initial[...], from: model),
        let ends = orders.finalStates(from: [start], columns: scenario.parallel)
      else { return false }
      return ends.contains { end in
        orders.state(after: scenario.post.prefix(index), from: end).map(isInvalid) ?? false
      }
    }
  }
}

extension Scenario {
  /// Where the call numbered `index` in history order (init, then each thread, then post) sits, or nil past the end.
  func callPath(ofHistoryIndex index: Int) -> CallPath? {
    var rest = index
    if rest < initial.count { return .initial(rest) }
    rest -= initial.count
    for thread in parallel.indices {
      if rest < parallel[thread].count { return .parallel(thread: thread, rest) }
      rest -= parallel[thread].count
    }
    return rest < post.count ? .post(rest) : nil
  }
}
