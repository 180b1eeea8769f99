/// The states of one key of a ``KeyValueModel`` history as string fingerprints: `append` in O(1), no string ever built.
///
/// A key's value grows with every append, so as strings the states would cost their
/// length to copy, hash and keep — about 1 KB each on Porcupine's c50 histories, tens of
/// thousands of them. Here a state is the string's length and two polynomial hashes
/// modulo the prime 2⁶¹ − 1, which compose: hash(s + v) = hash(s) · Bᵛ + hash(v), where
/// Bᵛ is the base to the power of v's length. A `get` fits when its result's fingerprint
/// equals the state's. Two different strings of length n share one base's hash with
/// probability at most n / 2⁶¹; with two independent bases, about n² / 2¹²², the same order
/// of risk as the memo's set fingerprints (``FingerprintSet``).
struct KeyValueStateSpace: StateTransitions {
  private struct Fingerprint: Hashable {
    var first: UInt64
    var second: UInt64
    var length: Int
  }

  private enum Action {
    /// A write that returned a value, which no state explains.
    case never
    /// A read: fits when the state is this fingerprint; any state when the outcome is unknown.
    case get(Fingerprint?)
    case put(Fingerprint)
    /// Append a string of this fingerprint, whose length's base powers are given.
    case append(Fingerprint, power: (UInt64, UInt64))
  }

  private static let prime: UInt64 = (1 << 61) - 1
  private static let bases: (UInt64, UInt64) = (
    0x1F3D_5B79_A2C4_E681 % prime, 0x0B7E_1516_28AE_D2A7 % prime
  )

  private var fingerprints: [Fingerprint] = []
  /// Per operation, whether it is a `put` (which may reset the value before a later read).
  private let isPut: [Bool]
  /// Per `put`, its value's fingerprint.
  private let putValues: [Fingerprint]
  /// For every completed `get`, the first hash of every prefix of its result (by length), one after another.
  ///
  /// One buffer rather than an array per read: a part's reads cost one allocation.
  private let prefixHashes: [UInt64]
  /// Per operation, where its result's prefix hashes start in `prefixHashes`, or -1 when it is not a completed `get`.
  private let prefixStart: [Int32]
  /// Per operation, how many prefix hashes it has (its result's length + 1).
  private let prefixCount: [Int32]
  /// How far `isDeadEnd` looks ahead in the remaining events, bounding its cost per search node.
  private static let lookahead = 1024
  /// Open addressing over `fingerprints`: a slot holds a state's name, or -1.
  private var slots = [Int32](repeating: -1, count: 16)
  private let actions: [Action]

  /// Creates the space of one key, starting from `initial`, for the part's operations.
  init(initial: String, steps: [KeyValueModel.Step], results: [Value], isInfo: [Bool]) {
    // Writes return nothing; a completed one that returned a value fits no state.
    let returnedValue = { (index: Int) in !isInfo[index] && !results[index].isNull }
    actions = steps.indices.map { index in
      switch steps[index] {
      case .get:
        if isInfo[index] { return .get(nil) }
        // A result that is not a string fits no state: its fingerprint matches none.
        let text = results[index].stringValue ?? ""
        var fingerprint = Self.fingerprint(of: text)
        if results[index].stringValue == nil { fingerprint.length = -1 }
        return .get(fingerprint)
      case .put(_, let value):
        return returnedValue(index) ? .never : .put(Self.fingerprint(of: value))
      case .append(_, let value):
        if returnedValue(index) { return .never }
        let count = value.utf8.count
        return .append(
          Self.fingerprint(of: value),
          power: (Self.power(Self.bases.0, count), Self.power(Self.bases.1, count)))
      }
    }
    isPut = steps.map { if case .put = $0 { true } else { false } }
    putValues = steps.map { step in
      if case .put(_, let value) = step { return Self.fingerprint(of: value) }
      return Fingerprint(first: 0, second: 0, length: -1)
    }
    var hashes: [UInt64] = []
    var starts = [Int32](repeating: -1, count: steps.count)
    var counts = [Int32](repeating: 0, count: steps.count)
    for index in steps.indices {
      guard case .get = steps[index], !isInfo[index], let text = results[index].stringValue else {
        continue
      }
      starts[index] = Int32(hashes.count)
      counts[index] = Int32(text.utf8.count + 1)
      var hash: UInt64 = 0
      hashes.append(hash)
      for byte in text.utf8 {
        hash = Self.add(Self.multiply(hash, Self.bases.0), UInt64(byte) + 1)
        hashes.append(hash)
      }
    }
    prefixHashes = hashes
    prefixStart = starts
    prefixCount = counts
    _ = name(Self.fingerprint(of: initial))
  }

  /// A dead end when a remaining `get` returns a string that can start neither with the value now nor with a remaining `put`'s.
  ///
  /// Between now and a read, the value can only grow by appends, or be reset by a `put`
  /// that may come before the read — one called before the read returned. Walking the
  /// events in time order gives exactly those puts at each read's return. Equal strings
  /// have equal hashes, so a mismatch of the first hash alone proves a prefix wrong.
  func isDeadEnd(_ state: Int32, remaining events: EventList, reads: Int) -> Bool {
    // At most one put a look: the puts seen fit on the stack, where the search's hot path
    // allocates nothing.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.lookahead) { puts in
      let current = fingerprints[Int(state)]
      var putCount = 0
      var node = events.first
      var looked = 0
      var tested = 0
      while node != EventList.end && looked < Self.lookahead && tested < reads {
        let operation = EventList.operation(node)
        if EventList.isCall(node) {
          if isPut[operation] {
            puts[putCount] = operation
            putCount += 1
          }
        } else {
          let start = Int(prefixStart[operation])
          if start >= 0 {
            tested += 1
            let count = Int(prefixCount[operation])
            let startsWithValue =
              current.length < count && prefixHashes[start + current.length] == current.first
            if !startsWithValue
              // The latest put is the one a legal read usually starts with: look at it first.
              && !puts[..<putCount].reversed().contains(where: { put in
                let value = putValues[put]
                return value.length < count && prefixHashes[start + value.length] == value.first
              })
            {
              return true
            }
          }
        }
        node = events.next(node)
        looked += 1
      }
      return false
    }
  }

  mutating func next(from state: Int32, by operation: Int) -> Int32 {
    switch actions[operation] {
    case .never:
      return -1
    case .get(let expected):
      guard let expected else { return state }
      return fingerprints[Int(state)] == expected ? state : -1
    case .put(let value):
      return name(value)
    case .append(let value, let power):
      let current = fingerprints[Int(state)]
      return name(
        Fingerprint(
          first: Self.add(Self.multiply(current.first, power.0), value.first),
          second: Self.add(Self.multiply(current.second, power.1), value.second),
          length: current.length + value.length))
    }
  }

  /// The state's name, new or known; the first hash is already uniform, so it picks the slot.
  private mutating func name(_ fingerprint: Fingerprint) -> Int32 {
    var slot = Int(truncatingIfNeeded: fingerprint.first) & (slots.count - 1)
    while slots[slot] >= 0 {
      if fingerprints[Int(slots[slot])] == fingerprint { return slots[slot] }
      slot = (slot + 1) & (slots.count - 1)
    }
    let name = Int32(fingerprints.count)
    fingerprints.append(fingerprint)
    slots[slot] = name
    if fingerprints.count * 2 > slots.count { grow() }
    return name
  }

  private mutating func grow() {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    for (name, fingerprint) in fingerprints.enumerated() {
      var slot = Int(truncatingIfNeeded: fingerprint.first) & (slots.count - 1)
      while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
      slots[slot] = Int32(name)
    }
  }

  private static func fingerprint(of text: String) -> Fingerprint {
    var first: UInt64 = 0
    var second: UInt64 = 0
    var length = 0
    for byte in text.utf8 {
      first = add(multiply(first, bases.0), UInt64(byte) + 1)
      second = add(multiply(second, bases.1), UInt64(byte) + 1)
      length += 1
    }
    return Fingerprint(first: first, second: second, length: length)
  }

  private static func power(_ base: UInt64, _ exponent: Int) -> UInt64 {
    var result: UInt64 = 1
    var square = base
    var remaining = exponent
    while remaining > 0 {
      if remaining & 1 == 1 { result = multiply(result, square) }
      square = multiply(square, square)
      remaining >>= 1
    }
    return result
  }

  @inline(__always) private static func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let sum = a + b
    return sum >= prime ? sum - prime : sum
  }

  /// a · b mod 2⁶¹ − 1, using 2⁶¹ ≡ 1 to fold the 122-bit product.
  @inline(__always) private static func multiply(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let (high, low) = a.multipliedFullWidth(by: b)
    // Below 2⁶² = 2p + 2, so two subtractions at most.
    var folded = (low & prime) + ((low >> 61) | (high << 3))
    if folded >= prime { folded -= prime }
    return folded >= prime ? folded - prime : folded
  }
}
