/// The memo of Lowe's search: the (set of linearized operations, state) pairs already explored, as fixed-size fingerprints.
///
/// A set of operations is kept as two 64-bit Zobrist hashes — the XOR of a random key
/// per operation — updated in O(1) when an operation is lifted or relinked, so an
/// entry costs 24 bytes however long the history, instead of a copy of a bitset.
/// Two different sets share both hashes with probability about 2⁻¹²⁸ per pair: for a
/// billion entries, under 10⁻²⁰ — far below the chance of a hardware fault.
/// Open addressing with linear probing over one array of entries (one allocation a
/// table, and a probe reads one cache line); a state of -1 marks an empty slot.
struct FingerprintSet {
  private struct Entry {
    var first: UInt64
    var second: UInt64
    var state: Int32

    static var empty: Entry { Entry(first: 0, second: 0, state: -1) }
  }

  private var entries: [Entry]
  private var mask: Int
  private(set) var count = 0

  init(capacity: Int = 1 << 10) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    entries = Array(repeating: .empty, count: size)
    mask = size - 1
  }

  /// The bytes the table holds.
  var bytes: Int { entries.count * MemoryLayout<Entry>.stride }

  /// Inserts the pair and says whether it was new.
  mutating func insert(_ set: (UInt64, UInt64), state: Int32) -> Bool {
    if (count + 1) * 4 > entries.count * 3 { grow() }
    var slot = Self.slot(set.0, state) & mask
    while entries[slot].state >= 0 {
      if entries[slot].state == state && entries[slot].first == set.0
        && entries[slot].second == set.1
      {
        return false
      }
      slot = (slot + 1) & mask
    }
    entries[slot] = Entry(first: set.0, second: set.1, state: state)
    count += 1
    return true
  }

  /// Whether the pair is in the set.
  func contains(_ set: (UInt64, UInt64), state: Int32) -> Bool {
    var slot = Self.slot(set.0, state) & mask
    while entries[slot].state >= 0 {
      if entries[slot].state == state && entries[slot].first == set.0
        && entries[slot].second == set.1
      {
        return true
      }
      slot = (slot + 1) & mask
    }
    return false
  }

  @inline(__always) private static func slot(_ hash: UInt64, _ state: Int32) -> Int {
    Int(truncatingIfNeeded: mix64(hash ^ UInt64(UInt32(bitPattern: state))))
  }

  private mutating func grow() {
    let old = entries
    entries = Array(repeating: .empty, count: old.count * 2)
    mask = entries.count - 1
    for entry in old where entry.state >= 0 {
      var slot = Self.slot(entry.first, entry.state) & mask
      while entries[slot].state >= 0 { slot = (slot + 1) & mask }
      entries[slot] = entry
    }
  }
}
