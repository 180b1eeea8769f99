import CRaceCheckInterposer
import CRaceCheckSupport
import Dispatch

/// The executor an `async` call's task prefers: it runs the task's jobs that belong to no actor on Dispatch, on a queue of the call's own under the scheduler.
///
/// A task comes here whenever it leaves an actor for code of no actor, so under the
/// scheduler each such job is a block it schedules, and under an ``AsyncProbe`` each
/// arrival is a hop it records: the executor the task left and where it will go on.
final class CallExecutor: TaskExecutor {
  /// The run whose probe records the task's hops, and the call the task is making when a job arrives.
  private let recording: (calls: AsyncCalls, call: @Sendable () -> Int)?
  /// Under the scheduler, the call's own queue, concurrent on the global queue's threads, whose label names the call's task in the trace; elsewhere the global queue, which costs nothing to make.
  private let queue: DispatchQueue

  /// The label of a call's queue starts with this, then the call's index and the call; the scheduler gives such a queue's blocks one column, the task's.
  static let queueLabelPrefix = "racecheck task of call "

  /// Creates the executor of `call`'s task, which `made` places in its run.
  init(for call: Scenario.Call, made: AsyncCalls.Call?) {
    recording = made.map { made in (made.calls, { made.index }) }
    guard rc_interposer_mode() == RC_MODE_SUBJECT else {
      queue = .global()
      return
    }
    let index = made.map { "\($0.index)" } ?? "?"
    queue = DispatchQueue(
      label: Self.queueLabelPrefix + "\(index): \(call)", attributes: .concurrent)
  }

  /// The executor `call`'s task needs, or nil when nothing watches where its jobs run.
  ///
  /// Only the scheduler, which runs each job as a block it chooses, and a probe, which
  /// records each hop, need the task's jobs to come here; elsewhere a task with no
  /// preference starts on the thread that made the call and saves the queue's hops.
  static func needed(for call: Scenario.Call, made: AsyncCalls.Call?) -> CallExecutor? {
    guard rc_interposer_mode() == RC_MODE_SUBJECT || made?.calls.probe != nil else { return nil }
    return CallExecutor(for: call, made: made)
  }

  /// Creates the executor of a task that makes several calls of `calls` in turn, under its probe; `current` is the call it is making.
  ///
  /// Only in plain stress: the scheduler follows each call's own task and queue.
  init(batchOf calls: AsyncCalls, current: @escaping @Sendable () -> Int) {
    recording = (calls, current)
    queue = .global()
  }

  /// The call a queue label of ``queueLabelPrefix`` names, or nil for another queue's label.
  static func call(namedBy label: String) -> Substring? {
    guard label.hasPrefix(queueLabelPrefix), let colon = label.firstIndex(of: ":") else {
      return nil
    }
    return label[label.index(colon, offsetBy: 2)...]
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if let recording, recording.calls.recordsHops, let hop = TaskJobLayout(job) {
      recording.calls.recordHop(
        call: recording.call(), leftExecutor: hop.currentExecutor,
        continuations: hop.continuations)
    }
    queue.async {
      // Under the scheduler, which job the block runs says what its steps touch.
      rc_runtime_note_job(unsafeBitCast(job, to: UnsafeRawPointer.self))
      job.runSynchronously(on: self.asUnownedTaskExecutor())
    }
  }
}

/// What a task's job says about where the task stands, read from the runtime's layout of jobs and async contexts.
///
/// The concurrency runtime's ABI (`swift/ABI/Task.h`) lays a job out as a heap object
/// (two words), two scheduler words, 32-bit flags whose low byte is the job's kind (0 for
/// a task) and a 32-bit id, a voucher, a reserved word and the function that resumes the
/// task; a task then holds its resume context. An async context starts with its parent
/// context and the function that resumes the parent. From the job down the chain of
/// parents come the continuations of every `await` the task is inside, innermost first:
/// for a task leaving an actor's method, one of them is the method's code after its
/// `await`, which names the suspension point. The executor the task is leaving is still
/// the thread's current one while it enqueues.
private struct TaskJobLayout {
  let currentExecutor: UInt?
  let continuations: [UInt]

  /// The deepest chain of awaits read; a chain ends sooner at the task's first context.
  static let deepestChain = 16

  init?(_ job: UnownedJob) {
    let raw = unsafeBitCast(job, to: UnsafeRawPointer.self)
    let taskKind: UInt32 = 0
    guard raw.load(fromByteOffset: 32, as: UInt32.self) & 0xFF == taskKind else { return nil }
    var continuations = [raw.load(fromByteOffset: 56, as: UInt.self)]
    var context = raw.load(fromByteOffset: 64, as: UnsafeRawPointer?.self)
    while let current = context, continuations.count < Self.deepestChain {
      continuations.append(current.load(fromByteOffset: 8, as: UInt.self))
      context = current.load(as: UnsafeRawPointer?.self)
    }
    self.continuations = continuations.filter { $0 != 0 }
    let executor = rc_current_executor_identity()
    currentExecutor = executor == 0 ? nil : executor
  }
}
