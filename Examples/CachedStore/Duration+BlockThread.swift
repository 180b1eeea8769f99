#if canImport(Glibc)
  import Glibc
#endif

extension Duration {
  /// Blocks the calling thread for this long, as a database call or a computation would; nothing for zero or less.
  func blockThread() {
    guard self > .zero else { return }
    let (seconds, attoseconds) = components
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
  }
}
