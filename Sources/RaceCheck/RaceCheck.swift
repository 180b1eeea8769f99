// The module users import: `import RaceCheck` brings the whole public API, whichever module holds it.
//
// Its three modules depend one way, and the compiler keeps them apart:
//   RaceCheckHistory      values, history files and their readers, the built-in models, the checker
//   RaceCheckEngine       specs, runners, the scheduler, diagnoses, reports (re-exports the history)
//   RaceCheckCommandLine  the `racecheck` commands an executable embeds, HTML and JUnit reports, benchmarks
@_exported import RaceCheckCommandLine
@_exported import RaceCheckEngine
@_exported import RaceCheckHistory
