/// The racecheck history file, version 1: the public format every recorded run is written in.
///
/// See `history-format.md` for the contract. This type reads and writes whole files; one
/// operation's JSON object is the `Codable` form of ``RecordedHistory/Operation``, which
/// repro files hold too.
package enum HistoryFile {}
