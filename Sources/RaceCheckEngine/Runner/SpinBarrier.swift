import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A reusable barrier for a fixed number of threads that spins briefly, then blocks.
///
/// Spinning keeps the release of threads tight, which is what makes their operations
/// overlap; blocking after a short spin keeps the barrier cheap when threads outnumber
/// cores and a waiter's partner is not even running.
final class SpinBarrier: @unchecked Sendable {
  // @unchecked Sendable: atomics, and a pthread mutex and condition for the waits.
  private let parties: Int
  private let spinLimit: Int
  /// Whether a spinning waiter yields its CPU now and then, for a partner that may be waiting to run on the same CPU.
  private let yieldsWhileSpinning: Bool
  private let arrived = Atomic<Int>(0)
  private let generation = Atomic<Int>(0)
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  /// Creates a barrier for `parties` threads that spins `spinLimit` times before blocking.
  ///
  /// Threads on CPUs of their own should not yield: on a busy machine a yield hands the
  /// CPU to another process for a whole time slice, milliseconds in which the partner
  /// arrives and waits.
  init(parties: Int, spinLimit: Int = 20_000, yieldsWhileSpinning: Bool = true) {
    precondition(parties > 0)
    self.parties = parties
    self.spinLimit = spinLimit
    self.yieldsWhileSpinning = yieldsWhileSpinning
    mutex = .allocate(capacity: 1)
    condition = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  /// Waits until all parties have arrived; everything written before arriving is visible after.
  func arriveAndWait() {
    let current = generation.load(ordering: .acquiring)
    if arrived.add(1, ordering: .acquiringAndReleasing).newValue == parties {
      arrived.store(0, ordering: .relaxed)
      // The increment happens under the mutex so that a waiter that checked the
      // generation under it cannot miss the broadcast.
      pthread_mutex_lock(mutex)
      generation.add(1, ordering: .releasing)
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
      return
    }
    for spin in 0..<spinLimit {
      if generation.load(ordering: .acquiring) != current { return }
      if yieldsWhileSpinning, spin & 0xFF == 0xFF { sched_yield() }
    }
    pthread_mutex_lock(mutex)
    while generation.load(ordering: .acquiring) == current {
      pthread_cond_wait(condition, mutex)
    }
    pthread_mutex_unlock(mutex)
  }
}
