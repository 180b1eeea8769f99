import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

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
    let half = latency / 2
    guard half > .zero else { return }
    let (seconds, attoseconds) = half.components
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
  }
}
