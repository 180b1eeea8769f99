import CRaceCheckInterposer
import CRaceCheckSupport

/// What Swift concurrency code under test did to the runtime's own state between two scheduling points, for partial-order reduction.
///
/// The runtime takes an actor, gives it up, cancels a task and collects a task group's
/// results by atomics of its own, which no scheduling point shows. Two steps that touch the
/// same such state must be tried in both orders, as two acquires of one lock are: the
/// interposer notes the calls that touch it (`swift_task_switch`, `Task.cancel()`,
/// `Task.isCancelled`, a group's child made), and at each of its points a thread tells which
/// executor it runs on. The main actor needs none of it: its jobs run one at a time on the
/// main queue, a queue the scheduler orders already.
extension ControlledScheduler {
  /// Notes, at `me`'s scheduling point, what its step since its last point touched of the concurrency runtime's state, to report with the step (``touchedUnseenInStep``).
  ///
  /// Called on `me`'s own thread, whose log the interposer keeps. The step came to every
  /// executor a task of it switched to, and had a turn of every actor it switched from, took
  /// to run the actor's jobs, or ran on at one of its two points and not the other; an actor
  /// it runs on now that it neither came to nor took for its jobs, it came to unseen. A step
  /// that runs on an actor from point to point changes none of its state: only one thread
  /// holds it, and a step of another thread that wants it comes to it. A task's job in a
  /// group touches the group at every step: the step that ends the task gives the group its
  /// result.
  func noteRuntimeTouches(of me: ControlledThread) {
    guard strategyReadsFootprints else {
      // Cleared all the same: a thread that outlives the schedule (the main thread) starts
      // the next one with nothing left over.
      rc_runtime_touches_clear()
      return
    }
    var touched: [StepFootprint.Touch] = []
    var cameTo: Set<UInt> = []
    func executor(_ identity: UInt, _ state: (UInt) -> StepFootprint.RuntimeState) {
      guard identity != 0, identity != mainExecutorIdentity else { return }
      touched.append(.runtime(state(identity), writes: true))
    }
    let capacity = 64
    withUnsafeTemporaryAllocation(of: rc_runtime_touch.self, capacity: capacity) { log in
      let count = Int(rc_runtime_touches_take(log.baseAddress, Int32(capacity)))
      if count < 0 { touched.append(.anyRuntimeState) }
      for note in log.prefix(max(count, 0)) {
        let object = UInt(note.object)
        switch note.kind {
        case RC_RUNTIME_EXECUTOR_LEFT: executor(object, StepFootprint.RuntimeState.actorTurn)
        case RC_RUNTIME_EXECUTOR_SOUGHT:
          cameTo.insert(object)
          executor(object, StepFootprint.RuntimeState.executor)
        case RC_RUNTIME_CANCELLATION_CHECK: touched.append(.runtime(.cancellation, writes: false))
        case RC_RUNTIME_CANCEL: touched.append(.runtime(.cancellation, writes: true))
        case RC_RUNTIME_GROUP_CHILD:
          groupsOfTasks[object] = UInt(note.related)
          touched.append(.runtime(.group(UInt(note.related)), writes: true))
        case RC_RUNTIME_TASK_JOB:
          me.jobTouches = groupsOfTasks[object].map { [.runtime(.group($0), writes: true)] } ?? []
        case RC_RUNTIME_EXECUTOR_JOB:
          // It took the actor to run its jobs, with no call the interposer sees.
          if object == 0 {
            touched.append(.anyExecutor)
          } else {
            cameTo.insert(object)
            executor(object, StepFootprint.RuntimeState.actorTurn)
          }
        default: touched.append(.anyRuntimeState)
        }
      }
    }
    let now = UInt(rc_current_executor_identity())
    if now != me.executorHeld {
      executor(me.executorHeld, StepFootprint.RuntimeState.actorTurn)
      // Taken with no call the interposer saw (the runtime's own code switched to it): the
      // step came to it too, as far as anyone can tell.
      executor(
        now,
        cameTo.contains(now)
          ? StepFootprint.RuntimeState.actorTurn : StepFootprint.RuntimeState.executor)
      me.executorHeld = now
    }
    touchedUnseenInStep += me.jobTouches + touched
  }
}
