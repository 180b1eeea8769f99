/// A proof without search that a register's history has no linearization: an operation saw a value nothing could have stored by then.
///
/// In any linearization, a read that returned v (or a compare-and-set that succeeded
/// expecting v) sees v as the register's state: the initial value, or the value of the
/// last write or successful compare-and-set before it. That operation is linearized
/// before the read, so it was called before the read returned. When v is not the initial
/// value and no operation that may store v was called by then, no order exists.
///
/// Only what may have taken effect may store a value: completed writes and successful
/// compare-and-sets, and writes and compare-and-sets of unknown outcome (`info`), which
/// may have happened. `fail` operations never took effect and are not in the part; a
/// compare-and-set that returned false stored nothing. Reads of unknown outcome saw
/// nothing known, so they prove nothing either.
struct ImpossibleRead: Sendable, Hashable {
  /// What one operation does to the register, as far as the proof is concerned.
  enum Access: Sendable, Hashable {
    /// Saw the register hold this value: a completed read, or a successful compare-and-set's expected value.
    case observes(Value, thenStores: Value?)
    /// May have stored this value.
    case stores(Value)
    /// Neither: a failed compare-and-set, a read of unknown outcome.
    case none
  }

  /// The operation that saw the impossible value, as an index into the operations given.
  var operation: Int
  /// The value it saw.
  var value: Value

  /// The impossible observation that returned first, or nil when every observed value could have been stored in time.
  ///
  /// `returnTimes[i]` is `.max` for an operation of unknown outcome. At equal times a call
  /// counts as before a return, as in the search's event order.
  static func first(
    accesses: [Access], callTimes: [Int64], returnTimes: [Int64], initial: Value
  ) -> ImpossibleRead? {
    // The two earliest calls of operations that may store each value: an operation that
    // stores what it observed (cas(v, v)) needs another to have stored v before it.
    var earliest: [Value: (first: (time: Int64, operation: Int), second: Int64)] = [:]
    func note(_ value: Value, by operation: Int) {
      let time = callTimes[operation]
      guard let known = earliest[value] else {
        earliest[value] = ((time, operation), .max)
        return
      }
      if time < known.first.time {
        earliest[value] = ((time, operation), known.first.time)
      } else if time < known.second {
        earliest[value] = (known.first, time)
      }
    }
    for (operation, access) in accesses.enumerated() {
      switch access {
      case .observes(_, let stored?), .stores(let stored): note(stored, by: operation)
      case .observes(_, nil), .none: break
      }
    }
    var found: ImpossibleRead?
    for (operation, access) in accesses.enumerated() {
      guard case .observes(let value, _) = access, value != initial else { continue }
      let deadline = returnTimes[operation]
      let storedInTime: Bool
      if let known = earliest[value] {
        let other = known.first.operation == operation ? known.second : known.first.time
        storedInTime = other <= deadline
      } else {
        storedInTime = false
      }
      if !storedInTime,
        found.map({ deadline < returnTimes[$0.operation] }) ?? true
      {
        found = ImpossibleRead(operation: operation, value: value)
      }
    }
    return found
  }
}
