import Foundation
import Synchronization

/// Real threads kept parked between schedules, so that a controlled thread starts without the kernel making one.
///
/// A schedule of a 2 × 3 scenario runs three controlled threads or more, and creating and
/// ending a thread costs more than the rest of such a schedule. A thread of the pool runs
/// one controlled thread's whole life, then parks until the next schedule hands it another.
/// A thread that never finishes its life (a schedule that deadlocked, or ran past its
/// step bound, parks its threads for good) is simply never given back.
///
/// Under Thread Sanitizer every controlled thread gets a thread of its own, as code
/// under test's threads do: the sanitizer orders what one thread does, so a thread that
/// ran an earlier schedule's calls would carry that order into the next.
final class ControlledThreadPool: Sendable {
  /// A parked thread and the life it runs next.
  private final class Worker: @unchecked Sendable {
    // @unchecked Sendable: `life` is written before `wake` is signalled and read after the wait.
    let wake = DispatchSemaphore(value: 0)
    /// Written before `wake` is signalled, read after it is waited for; nil tells the thread to end.
    var life: (() -> Void)?
  }

  /// The parked threads, and whether the pool is closed: then a thread that finishes ends.
  private let parked = Mutex<(workers: [Worker], closed: Bool)>(([], false))
  /// Whether threads are reused at all (not under Thread Sanitizer).
  let reusesThreads: Bool

  /// The stack each thread gets: only one runs at a time, and a parked schedule keeps its threads.
  static let stackSize = 1 << 20

  /// Creates an empty pool; with `reusesThreads` false, every life gets a fresh thread.
  init(reusesThreads: Bool = !SanitizerRaceLog.isActive) {
    self.reusesThreads = reusesThreads
  }

  /// How many threads are parked now, waiting for a life.
  var parkedCount: Int { parked.withLock { $0.workers.count } }

  /// Parks `worker` for a later life; false when the pool is closed and its thread should end.
  private func park(_ worker: Worker) -> Bool {
    parked.withLock { parked in
      guard !parked.closed else { return false }
      parked.workers.append(worker)
      return true
    }
  }

  deinit {
    let workers = parked.withLock { parked in
      parked.closed = true
      defer { parked.workers = [] }
      return parked.workers
    }
    for worker in workers { worker.wake.signal() }
  }

  /// Runs `life` on a parked thread, or on a new one when none is parked.
  func run(_ life: @escaping () -> Void) {
    if reusesThreads, let worker = parked.withLock({ $0.workers.popLast() }) {
      worker.life = life
      worker.wake.signal()
      return
    }
    let worker = Worker()
    worker.life = life
    // Weakly: a pool let go of ends its threads, the parked ones now and the others when their life ends.
    let thread = Thread { [weak self] in
      while let life = worker.life {
        worker.life = nil
        life()
        // No strong reference may outlive the call: a parked thread must not keep its pool.
        guard self.map({ $0.reusesThreads && $0.park(worker) }) ?? false else { return }
        worker.wake.wait()
      }
    }
    thread.stackSize = Self.stackSize
    thread.start()
  }
}

/// What the schedules of one check share: the threads parked between them, and the layouts of the classes they allocate.
///
/// Schedules run one after another and only one controlled thread runs at a time, so the
/// layouts need no lock.
final class ScheduleResources: @unchecked Sendable {
  // @unchecked Sendable: schedules, and their controlled threads, run one at a time.
  /// The threads controlled threads run on.
  let threads = ControlledThreadPool()
  /// The CPUs they may run on, read once: asking the kernel every schedule costs a system call.
  let placement = ThreadPlacement.current()
  /// The layouts of the classes code under test allocated, made on first use: a layout depends on its class alone.
  private var layouts: [ObjectIdentifier: ClassLayout] = [:]
  /// The executable's global variables, read on the first traced access to name C globals.
  private(set) lazy var globals = ExecutableGlobals()

  /// The layout of `type`, made once.
  func layout(of type: AnyClass) -> ClassLayout {
    let id = ObjectIdentifier(type)
    if let known = layouts[id] { return known }
    let layout = ClassLayout(type)
    layouts[id] = layout
    return layout
  }
}
