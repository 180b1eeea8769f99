import Synchronization

/// A key-value store with a read-through cache in front of a slower store, in a correct variant and one whose invalidation races a read's fill.
///
/// `get` returns the cached value or, on a miss, reads the store and fills the cache; `put`
/// writes the store and invalidates the key's cached value. An absent key reads as `""`, as
/// in racecheck's `kv` model. ``CachedStoreService`` serves it over HTTP.
///
/// ```swift
/// let store = CachedStore(variant: .correct)
/// store.put("x", "1")
/// store.get("x")  // "1"
/// ```
///
/// ## The race
///
/// In ``Variant/racyInvalidation`` a read that misses reads the store and then fills the
/// cache, and a write writes the store and then removes the cached value, with nothing
/// between the two. When a write falls between a read's store read and its fill:
///
/// 1. read: cache miss; store read returns the old value
/// 2. write: store write of the new value; the cache's entry is removed (there is none)
/// 3. read: fills the cache with the old value, returns it
///
/// every later read hits the old value until the next write of the key, though the write
/// returned before those reads were called: not linearizable.
///
/// ## The fix
///
/// ``Variant/correct`` fixes it as memcache's leases and version-checked fills do: a miss
/// takes a lease (the key's write count), and the fill is installed only if no write of
/// the key began since, checked and installed under the cache's lock. The write marks its
/// key *before* its store write (dropping the cached value, bumping the count, and refusing
/// leases while it is under way) and clears the mark after. Invalidating only after the
/// store write is not enough: between the store write and the invalidation, a read that
/// misses returns the new value from the store while a read that leased before the write
/// fills the cache with the old one, which a later read then returns; the mark before the
/// store write voids that lease.
///
/// Why it is linearizable: store accesses are atomic, at one instant each. A write takes
/// effect at its store write. A read that misses returns what its store read returned, and
/// takes effect at that read. A read that hits returns a value that was installed at some
/// instant when no write of the key was under way (no lease outlives a write's beginning,
/// and none is given during one), so it equalled the store's value then; and every write
/// after that began by dropping it. So while a value is cached it is the store's value, and
/// the hit takes effect at its lookup. Each of these instants lies inside its operation, and
/// each read returns the value of the write whose store write came last before it.
public final class CachedStore: Sendable {
  /// How the cache's fills and invalidations are ordered.
  public enum Variant: String, Hashable, Sendable, CaseIterable {
    /// Leased fills, and writes that void the leases before their store write: linearizable.
    case correct
    /// Unconditional fills, and invalidation after the store write: a read's fill can cache a stale value.
    case racyInvalidation
  }

  /// The variant this store runs.
  public let variant: Variant
  let store: SlowStore
  let cache = ReadThroughCache()
  let testHooks = Mutex(TestHooks())

  /// Creates an empty store of `variant` whose store accesses take `storeLatency` each.
  ///
  /// The default, 300 µs, is a database round trip on a local network.
  public init(variant: Variant, storeLatency: Duration = .microseconds(300)) {
    self.variant = variant
    store = SlowStore(latency: storeLatency)
  }

  /// The value of `key`, `""` when it has none.
  public func get(_ key: String) -> String {
    let lease: ReadThroughCache.Lease?
    switch cache.lookup(key) {
    case .hit(let value): return value
    case .miss(let granted): lease = granted
    }
    let value = store.value(for: key) ?? ""
    testHooks.withLock { $0.afterStoreRead }?(key, value)
    switch variant {
    case .correct:
      if let lease { cache.fill(value, under: lease) }
    case .racyInvalidation:
      cache.fill(value, for: key)
    }
    return value
  }

  /// Makes `value` the value of `key`.
  public func put(_ key: String, _ value: String) {
    switch variant {
    case .correct:
      cache.beginWrite(key)
      store.set(value, for: key)
      testHooks.withLock { $0.afterStoreWrite }?(key, value)
      cache.endWrite(key)
    case .racyInvalidation:
      store.set(value, for: key)
      testHooks.withLock { $0.afterStoreWrite }?(key, value)
      cache.remove(key)
    }
  }
}
