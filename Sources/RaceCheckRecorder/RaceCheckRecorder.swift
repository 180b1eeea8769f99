// A server, an integration test or a load test links this module to record the operations it
// makes, as the event form of the history file, without the checking engine (which interposes
// pthread functions). It re-exports the history module, whose `RecordedHistory` holds the
// recorder and whose checker reads what it writes.
@_exported import RaceCheckHistory
