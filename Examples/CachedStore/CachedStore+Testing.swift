extension CachedStore {
  /// Closures a test sets to pause a read or a write at the steps where they race.
  ///
  /// Each runs on the thread of the read or write, which waits for it: a hook that blocks
  /// until the test lets it go holds its operation at that step while others run.
  package struct TestHooks: Sendable {
    /// Called by a read that missed the cache, after its store read and before its fill, with the key and the value read.
    package var afterStoreRead: (@Sendable (_ key: String, _ value: String) -> Void)?
    /// Called by a write after its store write and before it ends (the racy variant's invalidation), with the key and value.
    package var afterStoreWrite: (@Sendable (_ key: String, _ value: String) -> Void)?

    /// Creates hooks; those not given are not called.
    package init(
      afterStoreRead: (@Sendable (_ key: String, _ value: String) -> Void)? = nil,
      afterStoreWrite: (@Sendable (_ key: String, _ value: String) -> Void)? = nil
    ) {
      self.afterStoreRead = afterStoreRead
      self.afterStoreWrite = afterStoreWrite
    }
  }

  /// Replaces the hooks; a read or write already inside a hook finishes with the old one.
  package func setTestHooks(_ hooks: TestHooks) {
    testHooks.withLock { $0 = hooks }
  }

  /// The value the cache holds for `key` now, without reading the store; nil when it holds none.
  package func cachedValue(for key: String) -> String? {
    cache.cachedValue(for: key)
  }

  /// The value the store holds for `key` now, bypassing the cache; nil when it holds none.
  package func storedValue(for key: String) -> String? {
    store.value(for: key)
  }
}
