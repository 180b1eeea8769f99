extension Scenario {
  /// The scenario without the calls that cannot have started when the calls at `inFlight` (history indices) were running.
  ///
  /// The parts run in order, so while a call of one part is in flight no later part has
  /// begun, and in the init and post parts, which run on one thread, neither has any
  /// later call of the same part. Without a call in flight nothing is known, and the
  /// scenario is returned whole.
  func truncated(afterCallsInFlight inFlight: [Int]) -> Scenario {
    guard let last = inFlight.max(), last >= 0 else { return self }
    let parallelStart = initial.count
    let postStart = parallelStart + parallel.reduce(0) { $0 + $1.count }
    if last < parallelStart {
      return Scenario(initial: Array(initial[...last]))
    }
    if last < postStart {
      return Scenario(initial: initial, parallel: parallel)
    }
    return Scenario(
      initial: initial, parallel: parallel,
      post: Array(post[...min(last - postStart, post.count - 1)]))
  }
}
