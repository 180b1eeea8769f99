/// The racecheck history file, version 1: the public format every recorded run is written in.
///
/// See `history-format.md` for the contract. This type writes the format; a history
/// file's operations appear in repro files too.
public enum HistoryFile {
  /// One operation as the file writes it.
  public struct Operation: Hashable, Sendable, Codable {
    /// The thread or client.
    public var process: Int
    /// The operation's name.
    public var op: String
    /// Its arguments.
    public var args: [Value]
    /// When it was called.
    public var call: Int64
    /// When it returned; absent for `info`.
    public var `return`: Int64?
    /// What it returned.
    public var result: Value?
    /// `ok`, `fail` or `info`; absent means `ok`.
    public var status: History.Status?
  }

  /// The operations of `history` as the file writes them, with times counted from its first call.
  static func operations(_ history: History) -> [Operation] {
    let origin = history.entries.map(\.callTime).min() ?? 0
    return history.entries.map { entry in
      Operation(
        process: entry.process, op: entry.call.operation, args: entry.call.arguments,
        call: entry.callTime - origin, return: entry.returnTime.map { $0 - origin },
        result: entry.result.isNull ? Value?.none : .some(entry.result),
        status: entry.status == .ok ? nil : entry.status)
    }
  }
}
