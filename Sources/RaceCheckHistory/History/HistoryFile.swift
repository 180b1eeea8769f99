/// The racecheck history file, version 1: the public format every recorded run is written in.
///
/// See `history-format.md` for the contract. This type writes the format; a history
/// file's operations appear in repro files too.
package enum HistoryFile {
  /// One operation as the file writes it.
  package struct Operation: Hashable, Sendable, Codable {
    /// The thread or client.
    package var process: Int
    /// The operation's name.
    package var op: String
    /// Its arguments.
    package var args: [Value]
    /// When it was called.
    package var call: Int64
    /// When it returned; absent for `info`.
    package var `return`: Int64?
    /// What it returned.
    package var result: Value?
    /// `ok`, `fail` or `info`; absent means `ok`.
    package var status: RecordedHistory.Operation.Status?

    /// Creates an operation as the file writes it; the engine writes its runs' histories with it.
    package init(
      process: Int, op: String, args: [Value], call: Int64, return: Int64?, result: Value?,
      status: RecordedHistory.Operation.Status?
    ) {
      self.process = process
      self.op = op
      self.args = args
      self.call = call
      self.return = `return`
      self.result = result
      self.status = status
    }
  }
}
