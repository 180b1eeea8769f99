extension RecordedHistory.Recorder {
  /// An error that says the call certainly had no effect, so the recorder records it `fail` rather than `info`.
  ///
  /// Any other error a recorded body throws leaves the call's outcome unknown (`info`): a
  /// timeout or a lost connection may come after the service applied the call. Conform the
  /// errors that come before anything was sent, or that the service answers with a refusal:
  ///
  /// ```swift
  /// struct Rejected: Error, RecordedHistory.Recorder.DefiniteFailure { var status: Int }
  /// try recorder.record("put", "k", "v") { throw Rejected(status: 409) }   // recorded as fail
  /// ```
  public protocol DefiniteFailure: Error {}
}
