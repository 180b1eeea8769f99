import CRaceCheckSupport

/// Spreads the stress runner's threads over distinct CPUs, so that the scheduler cannot stack them on one core.
///
/// Left to itself, Linux may run two runner threads on the same core for whole scenarios,
/// idle or busy: the threads then take turns, and an invocation almost never overlaps
/// (3 of 5,000 in one measured scenario, while its neighbours overlapped 500 of 500).
/// Pinning thread `i` to the `i`-th allowed CPU keeps them apart; where there are more
/// threads than CPUs, they wrap around. Nothing is pinned when only one CPU is allowed.
struct ThreadPlacement: Sendable {
  /// The CPUs the process's threads may run on, in increasing order.
  let allowed: [Int32]

  /// The placement for the calling thread's allowed CPUs.
  static func current() -> ThreadPlacement {
    var cpus = [Int32](repeating: 0, count: 1024)
    let count = Int(rc_thread_cpus(&cpus, Int32(cpus.count)))
    return ThreadPlacement(allowed: count > 0 ? Array(cpus.prefix(count)) : [])
  }

  /// Pins the calling thread, the runner's thread `thread`, to its CPU.
  func pin(thread: Int) {
    guard allowed.count > 1 else { return }
    var cpu = allowed[thread % allowed.count]
    _ = rc_set_thread_cpus(&cpu, 1)
  }

  /// Lets the calling thread run on every allowed CPU again.
  func release() {
    guard allowed.count > 1 else { return }
    _ = rc_set_thread_cpus(allowed, Int32(allowed.count))
  }
}
