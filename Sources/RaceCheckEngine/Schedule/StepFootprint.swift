/// What a controlled thread's next step touches, as partial-order reduction sees it.
///
/// Two steps of different threads conflict when they touch the same object and at least
/// one of them changes it: run in the other order, they may leave another state. Steps
/// that do not conflict commute, so a search needs only one of their orders. A step whose
/// effect the scheduler cannot name is ``unknown`` and conflicts with every step, which
/// costs schedules but never hides one.
struct StepFootprint: Hashable, Sendable {
  /// The one thing a step names as touched.
  enum Touch: Hashable, Sendable {
    /// A read of the memory at this address: a cell, an atomic's load, a stored property.
    case read(UInt)
    /// A write or an update of the memory at this address.
    case write(UInt)
    /// A primitive at this address, whose state every step on it changes: a lock, a queue, a semaphore, a group, a condition, a Mutex's word.
    case primitive(UInt)
    /// The history, where an operation's call or return is recorded: their order is part of what a check judges.
    case history
  }

  /// What the step names as touched.
  private(set) var touches: [Touch]
  /// Whether the step ends an operation or a queue block.
  ///
  /// An access racing another is reported only while the other's operation or block still
  /// runs (``ControlledScheduler/checkRace(on:by:_:step:)``), so an end is ordered against
  /// every access of memory: the search then tries the access on both sides of it.
  private(set) var endsActivity: Bool
  /// Whether the scheduler cannot tell what the step touches.
  private(set) var isUnknown: Bool

  private init(_ touches: [Touch], endsActivity: Bool = false, isUnknown: Bool = false) {
    self.touches = touches
    self.endsActivity = endsActivity
    self.isUnknown = isUnknown
  }

  /// A step that reads the memory at `address`.
  static func reads(_ address: UInt) -> StepFootprint { .init([.read(address)]) }

  /// A step that writes or updates the memory at `address`.
  static func writes(_ address: UInt) -> StepFootprint { .init([.write(address)]) }

  /// A step on the primitive at `address`.
  static func primitive(_ address: UInt) -> StepFootprint { .init([.primitive(address)]) }

  /// A step that records an operation's call.
  static let call = StepFootprint([.history])

  /// A step that records an operation's return, which ends it.
  static let callReturns = StepFootprint([.history], endsActivity: true)

  /// A step that ends a block of the queue at `address`, which lets the blocks behind it in.
  static func blockEnds(_ queue: UInt) -> StepFootprint {
    .init([.primitive(queue)], endsActivity: true)
  }

  /// A step whose effect the scheduler cannot name: it conflicts with every step.
  static let unknown = StepFootprint([], isUnknown: true)

  /// This footprint and the primitives at `addresses`: the locks a thread holds, which any step of it may release without a scheduling point first.
  func adding(primitives addresses: [UInt]) -> StepFootprint {
    guard !addresses.isEmpty, !isUnknown else { return self }
    var footprint = self
    footprint.touches += addresses.map(Touch.primitive)
    return footprint
  }

  /// Whether this step and `other`, made by different threads, may leave another state in the other order.
  func conflicts(with other: StepFootprint) -> Bool {
    if isUnknown || other.isUnknown { return true }
    if endsActivity, other.touchesMemoryOrHistory { return true }
    if other.endsActivity, touchesMemoryOrHistory { return true }
    return touches.contains { touch in other.touches.contains { Self.conflict(touch, $0) } }
  }

  private static func conflict(_ first: Touch, _ second: Touch) -> Bool {
    switch (first, second) {
    case (.read(let one), .write(let other)), (.write(let one), .read(let other)),
      (.write(let one), .write(let other)), (.primitive(let one), .primitive(let other)):
      return one == other
    case (.history, .history):
      return true
    default:
      return false
    }
  }

  private var touchesMemoryOrHistory: Bool {
    touches.contains { touch in
      switch touch {
      case .read, .write, .history: return true
      case .primitive: return false
      }
    }
  }
}

/// One scheduling point, as a strategy sees it.
struct SchedulingPoint {
  /// The threads that can run, sorted; never empty.
  var enabled: [Int]
  /// The thread that reached the point; it may have finished or be waiting.
  var running: Int
  /// The number of scheduling points before this one in the schedule.
  var step: Int
  /// By thread id, what each unfinished thread's next step touches; nil for a finished thread.
  var footprints: [StepFootprint?]

  /// Creates a point; strategies that do not reduce ignore `footprints`.
  init(enabled: [Int], running: Int, step: Int, footprints: [StepFootprint?] = []) {
    self.enabled = enabled
    self.running = running
    self.step = step
    self.footprints = footprints
  }
}
