import Testing

/// The root of the unit tests: the checker, the history readers and writers, the models, the diagnoses over hand-built histories, the reports, the session over a scripted runner and the documentation.
///
/// None of them runs code under test on real threads or under the scheduler, so they carry
/// no trait and run in parallel: `swift test --filter RaceCheckUnitTests` is the quick loop.
/// The checks of real code are in `RaceCheckTests`, one at a time.
@Suite
enum UnitTestSuite {}
