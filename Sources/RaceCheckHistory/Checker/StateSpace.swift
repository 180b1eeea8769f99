/// The model states a search meets, each stored once and named by a small integer, with every transition computed once.
///
/// The search compares, hashes and stores states millions of times; as `Int32` names
/// that is one machine word each, whatever the model (a key-value store's state is a
/// string that grows with every append). A step from state `s` by operation `i` is
/// computed the first time it is asked for and looked up afterwards.
struct StateSpace<State: Hashable>: StateTransitions {
  private(set) var states: [State]
  private var names: [State: Int32]
  private var transitions: TransitionTable
  private let step: (inout State, _ operation: Int) -> Bool

  /// Creates the space with `initial` as state 0.
  init(initial: State, step: @escaping (inout State, _ operation: Int) -> Bool) {
    states = [initial]
    names = [initial: 0]
    transitions = TransitionTable()
    self.step = step
  }

  /// The state `operation` leads to from `state`, or -1 when its result does not fit.
  mutating func next(from state: Int32, by operation: Int) -> Int32 {
    let key = UInt64(UInt32(bitPattern: state)) << 32 | UInt64(operation)
    if let known = transitions.value(for: key) { return known }
    var value = states[Int(state)]
    let result: Int32
    if step(&value, operation) {
      if let name = names[value] {
        result = name
      } else {
        result = Int32(states.count)
        states.append(value)
        names[value] = result
      }
    } else {
      result = -1
    }
    transitions.set(result, for: key)
    return result
  }
}

/// What the search needs of a model: the transitions between named states.
protocol StateTransitions {
  /// The state `operation` leads to from `state`, or -1 when its recorded result does not fit.
  mutating func next(from state: Int32, by operation: Int) -> Int32

  /// Whether no order of the operations still in `events` can succeed from `state`: a model's own pruning.
  ///
  /// It must never say `true` of a state from which an order exists; `false` is always safe.
  /// `reads` bounds the later reads it tests: the search asks for few while it seldom
  /// backtracks, so that a history without conflicts costs linear time, and for every read
  /// within reach once it struggles (``DeadEndReach``).
  func isDeadEnd(_ state: Int32, remaining events: EventList, reads: Int) -> Bool

  /// Whether ``isDeadEnd(_:remaining:reads:)`` reads event `node` (operation `node / 2`'s call when even, its return when odd).
  ///
  /// The event list chains these apart, so that the test walks them alone.
  func watches(_ node: Int32) -> Bool
}

extension StateTransitions {
  /// Knows of no pruning.
  func isDeadEnd(_ state: Int32, remaining events: EventList, reads: Int) -> Bool { false }

  /// Reads no event.
  func watches(_ node: Int32) -> Bool { false }
}

/// A map from 64-bit keys to state names, open addressing with linear probing.
struct TransitionTable {
  private var keys: [UInt64]
  /// The value plus 2, so that 0 marks an empty slot and -1 (no transition) is 1.
  private var values: [Int32]
  private var mask: Int
  private var count = 0

  init() {
    keys = Array(repeating: 0, count: 64)
    values = Array(repeating: 0, count: 64)
    mask = 63
  }

  @inline(__always) private static func slot(_ key: UInt64) -> Int {
    Int(truncatingIfNeeded: mix64(key))
  }

  func value(for key: UInt64) -> Int32? {
    var slot = Self.slot(key) & mask
    while values[slot] != 0 {
      if keys[slot] == key { return values[slot] - 2 }
      slot = (slot + 1) & mask
    }
    return nil
  }

  mutating func set(_ value: Int32, for key: UInt64) {
    if (count + 1) * 2 > values.count { grow() }
    var slot = Self.slot(key) & mask
    while values[slot] != 0 {
      if keys[slot] == key {
        values[slot] = value + 2
        return
      }
      slot = (slot + 1) & mask
    }
    keys[slot] = key
    values[slot] = value + 2
    count += 1
  }

  private mutating func grow() {
    let old = (keys, values)
    keys = Array(repeating: 0, count: old.0.count * 2)
    values = Array(repeating: 0, count: old.0.count * 2)
    mask = keys.count - 1
    count = 0
    for index in old.0.indices where old.1[index] != 0 {
      set(old.1[index] - 2, for: old.0[index])
    }
  }
}

/// MurmurHash3's 64-bit finalizer: every input bit reaches every output bit.
///
/// A bare multiplication would not do: its low output bits depend only on the input's low
/// bits, so keys that differ only in their high half (one operation from many states)
/// would share a slot and the table would degrade into long linear scans.
@inline(__always) func mix64(_ value: UInt64) -> UInt64 {
  var x = value
  x ^= x >> 33
  x &*= 0xFF51_AFD7_ED55_8CCD
  x ^= x >> 33
  x &*= 0xC4CE_B9FE_1A85_EC53
  x ^= x >> 33
  return x
}
