extension Interruption {
  /// An interruption that watches no signal, for a test to raise by hand.
  package static func forTesting() -> Interruption { .never }

  /// Records `signal` as if it had arrived: the session stops at its next check.
  package func raiseForTesting(_ signal: Int32) {
    _ = received.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
  }
}
