/// The states of a register's history, with a dead-end test: a read of a value that the register does not hold and that nothing left may store before the read returns.
///
/// From state v, a remaining read that returned w ≠ v needs some remaining operation that
/// may store w to come before it, so that operation's call precedes the read's return.
/// Walking the remaining events in time order (calls before returns at equal times)
/// gives, at each read's return, exactly the operations called by then. This is
/// ``ImpossibleRead`` asked again at every node, from the node's state: it prunes a stale
/// read (a value overwritten and never stored again) as soon as the search passes the
/// last write of it, instead of after trying every order of the other operations.
///
/// A compare-and-set that succeeded expecting w and stores w does not count as storing w
/// for others: it needs w already, so some other operation stored it first.
struct RegisterStateSpace<Model: RegisterAccessModel>: StateTransitions {
  private var space: StateSpace<Model>
  /// Per operation, the value it saw as a small integer, or -1.
  private let observed: [Int32]
  /// Per operation, the value it may store as a small integer, or -1.
  private let stored: [Int32]
  /// The values as small integers.
  private var numbers: [Value: Int32]
  /// Per state name, its value's number (grown as states are named).
  private var stateValues: [Int32] = []
  /// How many watched events (``watches(_:)``) `isDeadEnd` looks at, bounding its cost per search node.
  private static var lookahead: Int { 1024 }

  /// Creates the space of a part whose operation `i` has access `accesses[i]`, starting from `initial`.
  init(
    initial: Model, accesses: [ImpossibleRead.Access],
    step: @escaping (inout Model, _ operation: Int) -> Bool
  ) {
    space = StateSpace(initial: initial, step: step)
    var numbers: [Value: Int32] = [:]
    func number(_ value: Value) -> Int32 {
      if let known = numbers[value] { return known }
      let next = Int32(numbers.count)
      numbers[value] = next
      return next
    }
    var observed = [Int32](repeating: -1, count: accesses.count)
    var stored = [Int32](repeating: -1, count: accesses.count)
    for (operation, access) in accesses.enumerated() {
      switch access {
      case .observes(let value, let then):
        observed[operation] = number(value)
        if let then, then != value { stored[operation] = number(then) }
      case .stores(let value): stored[operation] = number(value)
      case .none: break
      }
    }
    self.observed = observed
    self.stored = stored
    self.numbers = numbers
    stateValues = [numbers[initial.state] ?? -1]
  }

  mutating func next(from state: Int32, by operation: Int) -> Int32 {
    let next = space.next(from: state, by: operation)
    while next >= 0 && stateValues.count < space.states.count {
      // A value no operation mentions matches no read: -1 never equals an observation.
      stateValues.append(numbers[space.states[stateValues.count].state] ?? -1)
    }
    return next
  }

  func isDeadEnd(_ state: Int32, remaining events: EventList, reads: Int) -> Bool {
    // At most one stored value a look: they fit on the stack, where the search's hot path
    // allocates nothing.
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.lookahead) { storable in
      let current = stateValues[Int(state)]
      var storableCount = 0
      var node = events.firstWatched
      var looked = 0
      var tested = 0
      while node != EventList.end && looked < Self.lookahead && tested < reads {
        let operation = EventList.operation(node)
        if EventList.isCall(node) {
          if stored[operation] >= 0 {
            storable[storableCount] = stored[operation]
            storableCount += 1
          }
        } else if observed[operation] >= 0 {
          tested += 1
          let value = observed[operation]
          if value != current && !storable[..<storableCount].contains(value) { return true }
        }
        node = events.nextWatched(node)
        looked += 1
      }
      return false
    }
  }

  /// A call that may store a value and a return that observed one: what ``isDeadEnd(_:remaining:reads:)`` reads.
  func watches(_ node: Int32) -> Bool {
    let operation = EventList.operation(node)
    return EventList.isCall(node) ? stored[operation] >= 0 : observed[operation] >= 0
  }
}
