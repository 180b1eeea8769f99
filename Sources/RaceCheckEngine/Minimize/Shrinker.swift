/// Shrinks a failing scenario until no smaller variant of it still fails.
///
/// The candidates, in order: dropping half of a part or of a thread's calls; dropping a
/// thread; dropping one call; moving a thread's first call to the end of the init part or
/// its last call to the start of the post part; simplifying one argument. The first
/// candidate that fails again (run with the candidate budget) replaces the scenario, and
/// the next candidates are those of the new scenario from the same place in the list on,
/// around to the start: the ones before it did not fail a moment ago, and each costs a
/// whole budget to reject again. When a whole turn of the list finds no candidate that
/// fails, the scenario is minimal, unless `triesHarder` asks for another turn.
struct Shrinker<Evidence> {
  /// Runs a candidate and returns its failure, or nil when it passed the whole budget.
  let fails: (Scenario) throws(OperationError) -> Evidence?
  /// Simpler versions of one call's arguments.
  let simplerArguments: (Scenario.Call) -> [[Value]]
  /// Called when a whole turn found no candidate that fails: true runs every candidate again.
  ///
  /// A racy failure's candidate that passed may only have been unlucky, and a smaller
  /// scenario, with fewer calls to overlap, fails less often: the caller that gives its
  /// candidates a larger budget for the next turn asks for one.
  var triesHarder: () -> Bool = { false }

  /// The smallest failing scenario found from `scenario`, its failure, and the number of steps taken.
  func shrink(_ scenario: Scenario, failure: Evidence) throws(OperationError) -> (
    scenario: Scenario, failure: Evidence, steps: Int
  ) {
    var current = (scenario: scenario, failure: failure)
    var steps = 0
    var tried = Set<Scenario>([scenario])
    var start = 0
    search: while true {
      let candidates = candidates(current.scenario)
      for offset in candidates.indices {
        let position = (start + offset) % candidates.count
        let candidate = candidates[position]
        guard tried.insert(candidate).inserted else { continue }
        if let failure = try fails(candidate) {
          current = (candidate, failure)
          steps += 1
          start = position
          continue search
        }
      }
      guard triesHarder() else { return (current.scenario, current.failure, steps) }
      tried = [current.scenario]
    }
  }

  /// The variants of `scenario` one step smaller, most promising first.
  ///
  /// Halves come first: the init and post parts, and each thread's calls, lose their first
  /// or second half at once. Most calls of a failing scenario do not matter to its bug, and
  /// a half that goes in one step saves a candidate run per call in it.
  func candidates(_ scenario: Scenario) -> [Scenario] {
    var result: [Scenario] = []
    func halves(_ calls: [Scenario.Call]) -> [[Scenario.Call]] {
      guard calls.count > 1 else { return [] }
      let middle = calls.count / 2
      return [Array(calls[middle...]), Array(calls[..<middle])]
    }
    for kept in halves(scenario.post) {
      var candidate = scenario
      candidate.post = kept
      result.append(candidate)
    }
    for kept in halves(scenario.initial) {
      var candidate = scenario
      candidate.initial = kept
      result.append(candidate)
    }
    for thread in scenario.parallel.indices {
      for kept in halves(scenario.parallel[thread]) {
        var candidate = scenario
        candidate.parallel[thread] = kept
        result.append(candidate)
      }
    }
    for thread in scenario.parallel.indices {
      var candidate = scenario
      candidate.parallel.remove(at: thread)
      result.append(candidate)
    }
    for index in scenario.post.indices.reversed() {
      var candidate = scenario
      candidate.post.remove(at: index)
      result.append(candidate)
    }
    for index in scenario.initial.indices {
      var candidate = scenario
      candidate.initial.remove(at: index)
      result.append(candidate)
    }
    for thread in scenario.parallel.indices {
      for index in scenario.parallel[thread].indices {
        var candidate = scenario
        candidate.parallel[thread].remove(at: index)
        result.append(candidate.withoutEmptyThreads())
      }
    }
    for thread in scenario.parallel.indices where !scenario.parallel[thread].isEmpty {
      var first = scenario
      first.initial.append(first.parallel[thread].removeFirst())
      result.append(first.withoutEmptyThreads())
      var last = scenario
      last.post.insert(last.parallel[thread].removeLast(), at: 0)
      result.append(last.withoutEmptyThreads())
    }
    for path in scenario.callPaths {
      let call = scenario[path]
      for arguments in simplerArguments(call) {
        var candidate = scenario
        candidate[path] = Scenario.Call(call.operation, arguments)
        result.append(candidate)
      }
    }
    return result
  }
}

extension Scenario {
  /// Where a call sits: in the init part, a thread, or the post part.
  enum CallPath: Hashable {
    case initial(Int)
    case parallel(thread: Int, Int)
    case post(Int)
  }

  var callPaths: [CallPath] {
    initial.indices.map(CallPath.initial)
      + parallel.indices.flatMap { thread in
        parallel[thread].indices.map { CallPath.parallel(thread: thread, $0) }
      }
      + post.indices.map(CallPath.post)
  }

  subscript(path: CallPath) -> Call {
    get {
      switch path {
      case .initial(let index): return initial[index]
      case .parallel(let thread, let index): return parallel[thread][index]
      case .post(let index): return post[index]
      }
    }
    set {
      switch path {
      case .initial(let index): initial[index] = newValue
      case .parallel(let thread, let index): parallel[thread][index] = newValue
      case .post(let index): post[index] = newValue
      }
    }
  }

  func withoutEmptyThreads() -> Scenario {
    var copy = self
    copy.parallel.removeAll { $0.isEmpty }
    return copy
  }
}
