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
/// effect at its store write, and a read that misses at its store read, whose value it
/// returns. A fill succeeds only if no write of the key was under way at any instant from
/// its lease to the fill (none was when the lease was given, and one beginning since would
/// have bumped the count), so no store write came between the read's store read and the
/// fill: the value cached is the store's value at the fill. A write's store write comes
/// after its beginning, which drops the cached value, so while a value is cached it is the
/// store's value, and a read that hits takes effect at its lookup. Each instant lies inside
/// its operation, and each read returns the value of the last store write before its own.
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
  /// The time a read that missed spends between its store read and its fill, building the value it caches.
  public let fillDelay: Duration
  let store: SlowStore
  let cache = ReadThroughCache()
  let testHooks = Mutex(TestHooks())

  /// Creates an empty store of `variant` whose store accesses take `storeLatency` each and whose fills wait `fillDelay`.
  ///
  /// The default latency, 300 µs, is a database round trip on a local network. The racy
  /// variant goes wrong only when a whole write fits between a read's store read and its
  /// fill. Without a fill delay those are as far apart as a write's store write and its
  /// invalidation (the answer's trip back), so it takes scheduling jitter, and a workload of
  /// ten clients misses it in about half its runs of ten thousand operations. The default
  /// delay, 1 ms, makes runs of a few thousand find it.
  public init(
    variant: Variant, storeLatency: Duration = .microseconds(300),
    fillDelay: Duration = .milliseconds(1)
  ) {
    self.variant = variant
    self.fillDelay = fillDelay
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
    fillDelay.blockThread()
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
