/// What synchronized one access to a cell: the queue blocks its thread was running and the locks it held.
struct AccessContext: Hashable, Sendable {
  /// A queue block the thread was running.
  struct Block: Hashable, Sendable {
    /// What tells the queue apart from the others while the check runs.
    var queue: UInt
    var name: String
    var isConcurrent: Bool
    var isGlobal: Bool
    /// Whether the code asked for a barrier.
    var flaggedBarrier: Bool
    /// Whether GCD ran it as one.
    var isBarrier: Bool
  }

  /// The accessing thread's name.
  var thread: String
  /// The blocks it was running, innermost last.
  var blocks: [Block]
  /// The number of locks and mutexes it held.
  var locksHeld: Int
  /// Whether its operation had taken and released a lock (or touched an atomic) before the access; nil when unknown.
  var synchronizedEarlier: Bool?
  /// The queues its call had left by `sync` before the access, innermost last; nil when unknown.
  var queuesLeft: [UInt]? = []

  /// Whether nothing that excludes other threads guarded the access when it happened.
  ///
  /// A block of a global queue guards nothing: GCD runs them at once, and runs a block
  /// flagged barrier there as an ordinary one.
  var isUnsynchronized: Bool { locksHeld == 0 && blocks.allSatisfy(\.isGlobal) }

  /// Whether its call is known to have synchronized in no way at all before the access.
  var neverSynchronized: Bool {
    isUnsynchronized && synchronizedEarlier == false && queuesLeft?.isEmpty == true
  }

  /// The access's guard as a report says it.
  var description: String {
    if let block = blocks.last {
      let kind =
        block.isGlobal
        ? "the global queue" : block.isConcurrent ? "the concurrent queue" : "the serial queue"
      let barrier =
        block.flaggedBarrier
        ? (block.isBarrier ? "a barrier block" : "a block flagged barrier") : "a block"
      let excludesNothing = isUnsynchronized ? ", which excludes nothing" : ""
      return "in \(barrier) on \(kind) '\(block.name)'\(excludesNothing)"
    }
    if locksHeld > 0 { return "holding \(locksHeld) lock\(locksHeld == 1 ? "" : "s")" }
    switch synchronizedEarlier {
    case true?: return "with no lock held, after its operation had released one"
    case false? where queuesLeft?.isEmpty == false: return "outside the queue its call had used"
    case false?: return "with no synchronization at all"
    case nil: return "with no lock held and in no queue block"
    }
  }
}
