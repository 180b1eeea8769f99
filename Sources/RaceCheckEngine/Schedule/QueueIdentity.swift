import CRaceCheckInterposer
import RaceCheckSync

/// What the scheduler knows of a queue: its address, label and kind, from a `SyncQueue` or the interposer.
struct QueueIdentity: Hashable, Sendable {
  /// The queue object's address, which identifies it while it lives.
  var address: UInt
  var label: String
  var isConcurrent: Bool
  /// One of the global queues, which run barriers as ordinary blocks.
  var isGlobal: Bool

  init(_ queue: SyncQueue) {
    address = UInt(bitPattern: Unmanaged.passUnretained(queue).toOpaque())
    label = queue.label
    isConcurrent = queue.isConcurrent
    isGlobal = queue.isGlobal
  }

  init(_ queue: rc_queue) {
    address = UInt(bitPattern: queue.address)
    label = String(cString: queue.label)
    isConcurrent = queue.is_concurrent
    isGlobal = queue.is_global
  }
}
