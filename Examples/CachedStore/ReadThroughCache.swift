import Synchronization

/// The cache in front of ``SlowStore``: a dictionary behind a lock, with the leases that make its fills safe.
///
/// A read that misses gets a ``Lease`` on the key, unless a write of the key is under way;
/// ``fill(_:under:)`` installs the value read from the store only if no write of the key began
/// since the lease was taken, checking and installing under the one lock. A write brackets
/// its store write with ``beginWrite(_:)`` and ``endWrite(_:)``. ``CachedStore`` explains why
/// both ends are needed; its racy variant uses the unconditional ``fill(_:for:)`` and
/// ``remove(_:)`` instead.
final class ReadThroughCache: Sendable {
  /// What a read found in the cache.
  enum Lookup: Hashable {
    /// The key's cached value.
    case hit(String)
    /// No value cached, and the lease to fill one; nil while a write of the key is under way.
    case miss(Lease?)
  }

  /// The right to fill a key, good while no write of the key begins.
  struct Lease: Hashable {
    /// The key the lease is for.
    let key: String
    /// The key's count of writes begun when the lease was taken.
    let version: UInt64
  }

  /// What the cache knows of one key.
  private struct Slot {
    /// The cached value; nil when none is.
    var value: String?
    /// How many writes of the key have begun, bumped by each.
    var version: UInt64 = 0
    /// How many writes of the key have begun and not ended.
    var writesUnderWay = 0
  }

  private let slots = Mutex<[String: Slot]>([:])

  /// Creates an empty cache.
  init() {}

  /// The cached value of `key`, or the lease to fill it.
  func lookup(_ key: String) -> Lookup {
    slots.withLock { slots in
      let slot = slots[key] ?? Slot()
      if let value = slot.value { return .hit(value) }
      return .miss(slot.writesUnderWay == 0 ? Lease(key: key, version: slot.version) : nil)
    }
  }

  /// Caches `value` for the lease's key if no write of it began since the lease; returns whether it did.
  @discardableResult
  func fill(_ value: String, under lease: Lease) -> Bool {
    slots.withLock { slots in
      // Every write begins by bumping the version, so an unchanged version also means that no
      // write is under way: none was when the lease was taken.
      guard slots[lease.key, default: Slot()].version == lease.version else { return false }
      slots[lease.key, default: Slot()].value = value
      return true
    }
  }

  /// Caches `value` for `key` whatever happened since it was read: the racy variant's fill.
  func fill(_ value: String, for key: String) {
    slots.withLock { $0[key, default: Slot()].value = value }
  }

  /// Drops the cached value of `key`: the racy variant's invalidation.
  func remove(_ key: String) {
    slots.withLock { slots in slots[key]?.value = nil }
  }

  /// Marks a write of `key` as begun: drops its value, voids its leases and refuses new ones until ``endWrite(_:)``.
  func beginWrite(_ key: String) {
    slots.withLock { slots in
      slots[key, default: Slot()].value = nil
      slots[key, default: Slot()].version &+= 1
      slots[key, default: Slot()].writesUnderWay += 1
    }
  }

  /// Marks a write of `key` as ended, its store write done.
  func endWrite(_ key: String) {
    slots.withLock { $0[key, default: Slot()].writesUnderWay -= 1 }
  }

  /// The value cached for `key` now; nil when none is.
  func cachedValue(for key: String) -> String? {
    slots.withLock { $0[key]?.value }
  }
}
