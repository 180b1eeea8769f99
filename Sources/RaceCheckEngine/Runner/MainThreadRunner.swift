import CRaceCheckInterposer
import Dispatch
import Foundation
import Synchronization

/// Runs another runner's requests so that thread 0 is the process's main thread, for specs that ask for it.
///
/// The stress runner's thread 0 is the thread that calls it, so a request from another
/// thread is run on the main thread through the main queue. The schedule runner starts
/// its thread 0 itself, on the main thread through the main queue; when the caller is
/// the main thread, its request runs on another thread while the main thread drains the
/// main queue. The main queue reaches the main thread in a test process because the
/// interposer keeps `dispatch_main` on it (`Sources/CRaceCheckInterposer/main_queue.c`).
final class MainThreadRunner: ScenarioRunning {
  private let inner: any ScenarioRunning
  /// Whether the inner runner starts its own thread 0 on the main thread (schedule mode).
  private let startsThreadZeroItself: Bool

  /// How long a request waits for the main thread to take it before the check gives up.
  static let mainThreadDeadline = Duration.seconds(10)

  init(_ inner: any ScenarioRunning, startsThreadZeroItself: Bool) {
    self.inner = inner
    self.startsThreadZeroItself = startsThreadZeroItself
  }

  func run(_ request: RunRequest) throws(RunError) -> RunResult {
    let onMain = rc_is_main_thread()
    if onMain != startsThreadZeroItself { return try inner.run(request) }
    let outcome = onMain ? runBesideTheMainThread(request) : runOnTheMainThread(request)
    guard let outcome else {
      throw .workerUnavailable(
        "thread 0 must run on the main thread, but the main thread did not take the work within "
          + "\(Self.mainThreadDeadline): check from the main thread, or from a process whose main "
          + "thread serves DispatchQueue.main (a test, or dispatchMain())")
    }
    return try outcome.get()
  }

  func shutDown() {
    inner.shutDown()
  }

  /// Runs `request` on the main thread through the main queue; nil when the main thread did not take it in time.
  private func runOnTheMainThread(_ request: RunRequest) -> Result<RunResult, RunError>? {
    let handOff = HandOff()
    let inner = UncheckedBox(inner)
    DispatchQueue.main.async {
      guard handOff.start() else { return }
      handOff.finish(Result { () throws(RunError) in try inner.value.run(request) })
    }
    return handOff.wait(startingWithin: Self.mainThreadDeadline)
  }

  /// Runs `request` on another thread while the main thread, the caller, drains the main queue for it.
  private func runBesideTheMainThread(_ request: RunRequest) -> Result<RunResult, RunError>? {
    let inner = UncheckedBox(inner)
    let run = MainQueueService.serve {
      Result { () throws(RunError) in try inner.value.run(request) }
    }
    return run.served ? run.value : nil
  }
}

/// A request handed to another thread: started once, finished once, waited for by the thread that handed it over.
private final class HandOff: Sendable {
  private let finished = DispatchSemaphore(value: 0)
  private let started = DispatchSemaphore(value: 0)
  private let state = Mutex<State>(.waiting)
  private let result = Mutex<Result<RunResult, RunError>?>(nil)

  private enum State { case waiting, running, abandoned }

  /// Marks the work started; false when the hand-off was abandoned first.
  func start() -> Bool {
    let starts = state.withLock { state in
      guard state == .waiting else { return false }
      state = .running
      return true
    }
    if starts { started.signal() }
    return starts
  }

  func finish(_ result: Result<RunResult, RunError>) {
    self.result.withLock { $0 = result }
    finished.signal()
  }

  /// The result, or nil when the work did not start within `deadline` (after which it never will).
  func wait(startingWithin deadline: Duration) -> Result<RunResult, RunError>? {
    if started.wait(timeout: .now() + max(deadline, .nanoseconds(1)).dispatchInterval) == .timedOut
    {
      let abandoned = state.withLock { state in
        guard state == .waiting else { return false }
        state = .abandoned
        return true
      }
      if abandoned { return nil }
      started.wait()
    }
    finished.wait()
    return result.withLock { $0 }
  }
}
