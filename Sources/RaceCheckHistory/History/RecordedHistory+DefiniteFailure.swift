extension RecordedHistory {
  /// An error that proves the call it ended had no effect, so the operation is recorded as failed (`fail`) rather than unknown (`info`).
  ///
  /// A workload or a recorder cannot tell what a call that threw did: a request that timed
  /// out may have been applied before the reply was lost. Such a call is recorded as
  /// `info`, which the checker lets take effect at any point after its call, or never. An
  /// error type that only ever means "refused before anything changed" (a validation
  /// error, a compare-and-set precondition the server checked) conforms, and its calls are
  /// left out of the check, as Jepsen's `:fail` operations are.
  ///
  /// ```swift
  /// struct Rejected: RecordedHistory.DefiniteFailure { var reason: String }
  /// ```
  public protocol DefiniteFailure: Error {}
}
