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
    /// A read whose outcome is unknown: it fits any state.
    case getAnything
    /// A completed read: fits when the state is this fingerprint (of length -1, matching
    /// none, when the result is not a string).
    case get(Fingerprint)
    case put(Fingerprint)
    /// Append a string of this fingerprint, whose length's base powers are given.
    case append(Fingerprint, power: (UInt64, UInt64))
  }

  private static let prime: UInt64 = (1 << 61) - 1
  private static let bases: (UInt64, UInt64) = (
    0x1F3D_5B79_A2C4_E681 % prime, 0x0B7E_1516_28AE_D2A7 % prime
  )

  private let actions: [Action]
  /// Per operation, what `isDeadEnd` reads of it, in one word.
  ///
  /// ``putRole`` for a `put`; for a completed `get` of a string, where its result's entries
  /// start in `prefixHashes`; ``otherRole`` for the rest. The test walks many events a
  /// node, so it reads no `Action`.
  private let roles: [Int32]
  private static let putRole: Int32 = -2
  private static let otherRole: Int32 = -1
  /// For every completed `get` of a string: its result's length n, then the first hash of
  /// each of its n + 1 prefixes (from the empty one), one read after another.
  ///
  /// One buffer rather than an array per read: a part's reads cost one allocation.
  private let prefixHashes: [UInt64]
  private var fingerprints: [Fingerprint] = []
  /// Open addressing over `fingerprints` once there are more than a few (a slot holds a
  /// state's name, or -1); empty before, when a linear scan is cheaper than the table.
  private var slots: [Int32] = []
  /// How many watched events (``watches(_:)``) `isDeadEnd` looks at, bounding its cost per search node.
  private static let lookahead = 1024
  /// Up to this many states are found by a scan, without `slots`.
  private static let scannedStates = 8

  /// Creates the space of one key, starting from `initial`, for the operations `members` (positions in `steps` and `results`).
  ///
  /// `isInfo` is by position in `members`: whether that operation's outcome is unknown.
  init(
    initial: String, members: [Int], steps: [KeyValueModel.Step], results: [Value],
    isInfo: [Bool]
  ) {
    var hashes: [UInt64] = []
    var actions: [Action] = []
    actions.reserveCapacity(members.count)
    var roles: [Int32] = []
    roles.reserveCapacity(members.count)
    for (position, operation) in members.enumerated() {
      let info = isInfo[position]
      // Writes return nothing; a completed one that returned a value fits no state.
      let returnedValue = !info && !results[operation].isNull
      roles.append(Self.otherRole)
      switch steps[operation] {
      case .get:
        if info {
          actions.append(.getAnything)
        } else if let text = results[operation].stringValue {
          roles[position] = Int32(hashes.count)
          actions.append(.get(Self.fingerprint(of: text, prefixes: &hashes)))
        } else {
          actions.append(.get(Fingerprint(first: 0, second: 0, length: -1)))
        }
      case .put(_, let value):
        if returnedValue {
          actions.append(.never)
        } else {
          roles[position] = Self.putRole
          actions.append(.put(Self.fingerprint(of: value)))
        }
      case .append(_, let value):
        if returnedValue {
          actions.append(.never)
        } else {
          let appended = Self.fingerprint(of: value)
          actions.append(
            .append(
              appended,
              power: (
                Self.power(Self.bases.0, appended.length), Self.power(Self.bases.1, appended.length)
              )))
        }
      }
    }
    self.actions = actions
    self.roles = roles
    prefixHashes = hashes
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
    withUnsafeTemporaryAllocation(of: Fingerprint.self, capacity: Self.lookahead) { puts in
      let current = fingerprints[Int(state)]
      var putCount = 0
      var node = events.firstWatched
      var looked = 0
      var tested = 0
      while node != EventList.end && looked < Self.lookahead && tested < reads {
        let operation = EventList.operation(node)
        let role = roles[operation]
        if EventList.isCall(node) {
          if role == Self.putRole, case .put(let value) = actions[operation] {
            puts[putCount] = value
            putCount += 1
          }
        } else if role >= 0 {
          tested += 1
          let start = Int(role)
          let length = Int(prefixHashes[start])
          // Whether the read's result starts with `value`: its prefix of that length hashes alike.
          let startsWith = { (value: Fingerprint) in
            value.length <= length && prefixHashes[start + 1 + value.length] == value.first
          }
          // The latest put is the one a legal read usually starts with: look at it first.
          if !startsWith(current) && !puts[..<putCount].reversed().contains(where: startsWith) {
            return true
          }
        }
        node = events.nextWatched(node)
        looked += 1
      }
      return false
    }
  }

  /// A `put`'s call and a completed `get`'s return: what ``isDeadEnd(_:remaining:reads:)`` reads.
  func watches(_ node: Int32) -> Bool {
    let role = roles[EventList.operation(node)]
    return EventList.isCall(node) ? role == Self.putRole : role >= 0
  }

  mutating func next(from state: Int32, by operation: Int) -> Int32 {
    switch actions[operation] {
    case .never:
      return -1
    case .getAnything:
      return state
    case .get(let result):
      return fingerprints[Int(state)] == result ? state : -1
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
    if slots.isEmpty {
      if let known = fingerprints.firstIndex(of: fingerprint) { return Int32(known) }
      fingerprints.append(fingerprint)
      if fingerprints.count > Self.scannedStates { grow() }
      return Int32(fingerprints.count - 1)
    }
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
    slots = [Int32](repeating: -1, count: max(4 * Self.scannedStates, slots.count * 2))
    for (name, fingerprint) in fingerprints.enumerated() {
      var slot = Int(truncatingIfNeeded: fingerprint.first) & (slots.count - 1)
      while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
      slots[slot] = Int32(name)
    }
  }

  /// The bases squared: the hashes take two bytes a step, h · B² + (c₁ + 1) · B + (c₂ + 1).
  ///
  /// One multiplication a step on the path each hash waits on, not two: the hashes of a
  /// key's reads and writes were a sixth of checking a 1000-operation key-value history.
  private static let squares: (UInt64, UInt64) = (
    multiply(bases.0, bases.0), multiply(bases.1, bases.1)
  )
  /// (c + 1) · B for every byte c, for each base.
  private static let scaledBytes: ([UInt64], [UInt64]) = (
    (0..<256).map { multiply(UInt64($0) + 1, bases.0) },
    (0..<256).map { multiply(UInt64($0) + 1, bases.1) }
  )

  /// The fingerprint of `text`, appending its length and the first hash of each of its prefixes (from the empty one) to `prefixes`.
  private static func fingerprint(of text: String, prefixes: inout [UInt64]) -> Fingerprint {
    var text = text
    return text.withUTF8 { bytes in
      let start = prefixes.count
      let count = bytes.count
      // Grown geometrically, as appends would, but once a read rather than once a byte;
      // the entries are then written in place, without a capacity check a byte.
      let needed = start + count + 2
      if prefixes.capacity < needed { prefixes.reserveCapacity(max(needed, 2 * prefixes.capacity)) }
      prefixes.append(contentsOf: repeatElement(0, count: count + 2))
      return prefixes.withUnsafeMutableBufferPointer { entries in
        // entries[start + 1 + k] is the first hash of the prefix of length k.
        entries[start] = UInt64(count)
        var first: UInt64 = 0
        var second: UInt64 = 0
        var index = 0
        while index + 1 < count {
          let (one, two) = (bytes[index], bytes[index + 1])
          entries[start + 2 + index] = add(multiply(first, bases.0), UInt64(one) + 1)
          first = add(
            multiply(first, squares.0), add(scaledBytes.0[Int(one)], UInt64(two) + 1))
          second = add(
            multiply(second, squares.1), add(scaledBytes.1[Int(one)], UInt64(two) + 1))
          entries[start + 3 + index] = first
          index += 2
        }
        if index < count {
          first = add(multiply(first, bases.0), UInt64(bytes[index]) + 1)
          second = add(multiply(second, bases.1), UInt64(bytes[index]) + 1)
          entries[start + 2 + index] = first
        }
        return Fingerprint(first: first, second: second, length: count)
      }
    }
  }

  private static func fingerprint(of text: String) -> Fingerprint {
    var text = text
    return text.withUTF8 { bytes in
      let count = bytes.count
      var first: UInt64 = 0
      var second: UInt64 = 0
      var index = 0
      while index + 1 < count {
        let (one, two) = (bytes[index], bytes[index + 1])
        first = add(multiply(first, squares.0), add(scaledBytes.0[Int(one)], UInt64(two) + 1))
        second = add(multiply(second, squares.1), add(scaledBytes.1[Int(one)], UInt64(two) + 1))
        index += 2
      }
      if index < count {
        first = add(multiply(first, bases.0), UInt64(bytes[index]) + 1)
        second = add(multiply(second, bases.1), UInt64(bytes[index]) + 1)
      }
      return Fingerprint(first: first, second: second, length: count)
    }
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
