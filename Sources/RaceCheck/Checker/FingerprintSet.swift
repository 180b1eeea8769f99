/// The memo of Lowe's search: the (set of linearized operations, state) pairs already explored, as fixed-size fingerprints.
///
/// A set of operations is kept as two 64-bit Zobrist hashes — the XOR of a random key
/// per operation — updated in O(1) when an operation is lifted or relinked, so an
/// entry costs 20 bytes however long the history, instead of a copy of a bitset.
/// Two different sets share both hashes with probability about 2⁻¹²⁸ per pair: for a
/// billion entries, under 10⁻²⁰ — far below the chance of a hardware fault.
/// Open addressing with linear probing; a state of -1 marks an empty slot.
struct FingerprintSet {
  private var first: [UInt64]
  private var second: [UInt64]
  private var states: [Int32]
  private var mask: Int
  private(set) var count = 0

  init(capacity: Int = 1 << 10) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    first = Array(repeating: 0, count: size)
    second = Array(repeating: 0, count: size)
    states = Array(repeating: -1, count: size)
    mask = size - 1
  }

  /// The bytes the table holds.
  var bytes: Int { states.count * 20 }

  /// Inserts the pair and says whether it was new.
  mutating func insert(_ set: (UInt64, UInt64), state: Int32) -> Bool {
    if (count + 1) * 4 > states.count * 3 { grow() }
    var slot = Self.slot(set.0, state) & mask
    while states[slot] >= 0 {
      if states[slot] == state && first[slot] == set.0 && second[slot] == set.1 { return false }
      slot = (slot + 1) & mask
    }
    first[slot] = set.0
    second[slot] = set.1
    states[slot] = state
    count += 1
    return true
  }

  /// Whether the pair is in the set.
  func contains(_ set: (UInt64, UInt64), state: Int32) -> Bool {
    var slot = Self.slot(set.0, state) & mask
    while states[slot] >= 0 {
      if states[slot] == state && first[slot] == set.0 && second[slot] == set.1 { return true }
      slot = (slot + 1) & mask
    }
    return false
  }

  @inline(__always) private static func slot(_ hash: UInt64, _ state: Int32) -> Int {
    Int(truncatingIfNeeded: mix64(hash ^ UInt64(UInt32(bitPattern: state))))
  }

  private mutating func grow() {
    let old = (first, second, states)
    let size = states.count * 2
    first = Array(repeating: 0, count: size)
    second = Array(repeating: 0, count: size)
    states = Array(repeating: -1, count: size)
    mask = size - 1
    for index in old.2.indices where old.2[index] >= 0 {
      var slot = Self.slot(old.0[index], old.2[index]) & mask
      while states[slot] >= 0 { slot = (slot + 1) & mask }
      first[slot] = old.0[index]
      second[slot] = old.1[index]
      states[slot] = old.2[index]
    }
  }
}
