import Synchronization

/// The store behind the cache: a dictionary behind a lock whose every access takes a fixed latency, like a database round trip.
///
/// Half the latency passes before the access and half after, as a request's trip to a
/// database and its answer's trip back: the access itself is atomic at one instant in the
/// middle, and accesses of concurrent callers overlap their trips.
final class SlowStore: Sendable {
  /// The time one access takes, trips included.
  let latency: Duration
  private let values = Mutex<[String: String]>([:])

  /// Creates an empty store whose accesses take `latency`.
  init(latency: Duration) {
    self.latency = latency
  }

  /// The value of `key`; nil when it has none.
  func value(for key: String) -> String? {
    trip()
    defer { trip() }
    return values.withLock { $0[key] }
  }

  /// Makes `value` the value of `key`.
  func set(_ value: String, for key: String) {
    trip()
    defer { trip() }
    values.withLock { $0[key] = value }
  }

  /// Sleeps through one way of a round trip, half the latency.
  private func trip() {
    (latency / 2).blockThread()
  }
}
