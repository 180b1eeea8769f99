/// A named kind of concurrency bug, with the stable identifier reports and `--json` output use.
public enum BugPattern: String, Hashable, Sendable, Codable, CaseIterable {
  /// An insert at `count` is rejected by a guard written `index < count`.
  case insertAtCountRejected = "insert-at-count-rejected"
  /// A reference to the live internal storage escapes the lock that guards it.
  case escapedLiveStorage = "escaped-live-storage"
  /// A lookup compares identity (`===`) where it should compare equality.
  case identityInsteadOfEquality = "identity-instead-of-equality"
  /// A barrier on a serial queue, where it has no effect (a finding, not a failure).
  case barrierOnSerialQueue = "barrier-on-serial-queue"
  /// A bounds check `index <= count - 1` in unsigned arithmetic passes on an empty collection.
  case unsignedUnderflowBoundsCheck = "unsigned-underflow-bounds-check"
  /// An asynchronous write checks no index, so it traps off the caller's thread.
  case uncheckedIndexInAsyncWrite = "unchecked-index-in-async-write"
  /// Each access is atomic but the read-modify-write made of them is not.
  case nonAtomicCompoundUpdate = "non-atomic-compound-update"
  /// A `sync` onto the queue the thread is already running on.
  case syncOnCurrentQueue = "sync-on-current-queue"
  /// A data race, when only results and crashes are seen.
  case dataRace = "data-race"
  /// A write's effect lost to a concurrent write, when only results are seen: unsynchronized writes or a read-modify-write of atomic parts.
  case lostUpdate = "lost-update"
  /// Shared state accessed with no synchronization at all.
  case unsynchronizedAccess = "unsynchronized-access"
  /// Writes on a concurrent queue without a barrier run alongside reads and writes.
  case concurrentQueueWithoutBarrier = "concurrent-queue-without-barrier"
  /// An atomic property holds a reference whose contents are mutated without synchronization.
  case atomicReferenceNonAtomicContents = "atomic-reference-non-atomic-contents"
  /// A barrier on a global queue, which GCD treats as an ordinary block.
  case barrierOnGlobalQueue = "barrier-on-global-queue"
  /// A call entered an actor while another call of it was suspended at an `await` between reading and writing its state.
  case actorReentrancy = "actor-reentrancy"
  /// Two threads take the same locks in opposite orders, and each waits for the lock the other holds.
  case lockOrderInversion = "lock-order-inversion"
  /// A condition is signalled before its waiter waits, or waited on without checking a predicate: the waiter sleeps forever.
  case lostWakeup = "lost-wakeup"
  /// A failure that fits none of the named patterns.
  case unclassified = "unclassified"
}

/// A named bug and the evidence that names it.
public struct Diagnosis: Hashable, Sendable, Codable {
  /// The pattern the evidence fits, or ``BugPattern/unclassified``.
  public var pattern: BugPattern
  /// One sentence on the evidence: which operation, in which state, against what the model expected.
  public var evidence: String

  /// Creates a diagnosis.
  public init(_ pattern: BugPattern, evidence: String) {
    self.pattern = pattern
    self.evidence = evidence
  }
}

extension BugPattern {
  /// How much a pattern says about the bug: a specific pattern over the `data-race` family over `unclassified`.
  var specificity: Int {
    switch self {
    case .unclassified: 0
    case .dataRace, .lostUpdate: 1
    default: 2
    }
  }

  /// Whether the pattern names only a family (`data-race`, `lost-update`): what results alone can prove.
  var namesOnlyAFamily: Bool { specificity == 1 }

  /// The family a race on memory belongs to, `data-race`, which a check that sees only results names it by; nil for any other pattern.
  var family: BugPattern? {
    switch self {
    case .unsynchronizedAccess, .concurrentQueueWithoutBarrier, .atomicReferenceNonAtomicContents,
      .barrierOnGlobalQueue, .escapedLiveStorage:
      .dataRace
    default: nil
    }
  }
}
