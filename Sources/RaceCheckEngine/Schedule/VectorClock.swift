/// A vector clock: for each controlled thread, how many of its steps are known to have happened before.
///
/// The primitives' happens-before edges join clocks; two accesses to a cell race
/// when neither clock covers the other's epoch.
struct VectorClock: Hashable, Sendable {
  private var counts: [Int] = []

  subscript(thread: Int) -> Int {
    get { thread < counts.count ? counts[thread] : 0 }
    set {
      if thread >= counts.count { counts += Array(repeating: 0, count: thread - counts.count + 1) }
      counts[thread] = newValue
    }
  }

  /// Takes, for each thread, the later of the two counts.
  mutating func join(_ other: VectorClock) {
    for (thread, count) in other.counts.enumerated() where count > self[thread] {
      self[thread] = count
    }
  }

  /// Starts a new epoch of `thread`, so that its later steps are not covered by what it released before.
  mutating func tick(_ thread: Int) {
    self[thread] += 1
  }
}
