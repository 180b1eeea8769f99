import Testing

/// The root of every Swift Testing suite here, run one test at a time.
///
/// Stress checks find races only when their threads have the cores to themselves;
/// run beside other tests they would find fewer. Every suite is declared in an
/// extension of this one, so that a plain `swift test` serializes them all.
@Suite(.serialized)
enum RaceCheckTestSuite {}
