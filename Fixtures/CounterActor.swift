// Written for racecheck, not ported from the posts: row 31.
// No bug: the counter's methods do not suspend, so each call runs on the actor from start
// to end, one at a time: the actor's isolation makes `count += 1` atomic.

/// A counter as an actor whose methods do not suspend.
///
/// ```swift
/// let counter = CounterActor()
/// await counter.increment()
/// let value = await counter.value  // 1
/// ```
public actor CounterActor {
  /// The count.
  public private(set) var value = 0

  /// Creates a counter at zero.
  public init() {}

  /// Adds one.
  public func increment() {
    value += 1
  }
}
