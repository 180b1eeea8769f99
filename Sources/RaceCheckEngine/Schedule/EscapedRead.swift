/// Schedule mode: a call that read shared memory outside every queue after leaving a queue, while another call's block entered that queue.
///
/// The read is one a ``SyncPoint`` marks: code walking memory it reached through a queue
/// (an enumerator a `sync` block handed out, say) after its call has left the queue. A
/// block of another call that entered the queue in between ran where the read did not
/// wait for it, so it may have changed that memory under the read.
struct EscapedRead: Hashable, Sendable, Codable {
  /// The queue's label.
  var queue: String
  /// The reading call.
  var reader: RecordedHistory.Operation
  /// The call whose block entered the queue after the reader had left it and before it read.
  var writer: RecordedHistory.Operation
}

extension ControlledScheduler {
  /// An ``EscapedRead`` as the scheduler sees it, with the calls by their position in the scenario's history.
  struct ReadAfterLeaving: Hashable {
    var queue: String
    var reader: Int
    var writer: Int
  }
}
