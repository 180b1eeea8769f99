/// A fast, seedable random number generator: the same seed gives the same sequence everywhere.
///
/// racecheck never draws from the system generator, so that every scenario can be
/// rebuilt from its seed. Users never name it: a custom ``Generator`` draws from it as
/// `any RandomNumberGenerator`.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  package init(seed: UInt64) {
    state = seed
  }

  /// Advances the sequence and returns its next value.
  package mutating func next() -> UInt64 {
    state &+= Self.increment
    return Self.mix(state)
  }

  /// The `index`-th value (from 0) that a generator seeded with `seed` returns, computed without drawing the ones before it.
  ///
  /// The generator's state only ever grows by a constant, so any one output is a
  /// function of its position: a table of draws can be computed where it is read.
  @inline(__always) static func output(seed: UInt64, at index: Int) -> UInt64 {
    mix(seed &+ UInt64(truncatingIfNeeded: index + 1) &* increment)
  }

  private static var increment: UInt64 { 0x9E37_79B9_7F4A_7C15 }

  @inline(__always) private static func mix(_ state: UInt64) -> UInt64 {
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// Derives the seed of the `index`-th child sequence of `seed`, independent of its siblings.
  package static func derive(_ seed: UInt64, _ index: UInt64) -> UInt64 {
    var generator = SplitMix64(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
    return generator.next()
  }
}

extension RandomNumberGenerator {
  /// Returns a value in `0..<bound`; `bound` must be positive.
  ///
  /// Not `Int.random(in:using:)`, which draws other values from the same sequence: a seed
  /// keeps naming the scenarios it always named. Inlinable, so that the engine's draws from a
  /// `SplitMix64` (schedule strategies, scenarios) are specialized rather than generic calls.
  @inlinable
  package mutating func below(_ bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }
}
