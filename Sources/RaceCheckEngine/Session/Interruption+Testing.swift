extension Interruption {
  /// Records `signal` as if it had arrived, for a test of an interruption that watches none (``never``): the session stops at its next check.
  package func raiseForTesting(_ signal: Int32) {
    receivedCount.add(1, ordering: .relaxed)
    _ = received.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
  }
}
