import CRaceCheckInterposer
import CRaceCheckSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a child process had in flight, kept in memory the parent can still read after it died.
///
/// The parent creates a recorder and hands its ``fileDescriptor`` to the child, which maps the
/// same memory with ``init(mappingFileDescriptor:)``. The child marks every invocation and every
/// operation; after a crash or a hang the parent's ``snapshot()`` says what was running. Each
/// mark is one atomic store and no system call, so it can surround every operation:
///
/// ```swift
/// recorder.beginInvocation(scenario: 3, invocation: 17)
/// recorder.beginOperation(thread: 0, index: 2); defer { recorder.endOperation(thread: 0) }
/// ```
package final class FlightRecorder: @unchecked Sendable {
  // @unchecked Sendable: constant fields; the shared struct is accessed with C11 atomics.
  /// Runner-thread slots the recorder has; marks on other slot numbers are ignored.
  package static let threadSlots: Int = Int(RC_FLIGHT_RECORDER_SLOTS)

  /// The memfd behind the recorder, to be inherited by the child.
  package let fileDescriptor: Int32
  /// The mapped shared struct; written with C11 atomics only.
  let pointer: OpaquePointer
  private let ownsFileDescriptor: Bool

  /// Creates an empty recorder in a new memfd (parent side); the fd is close-on-exec.
  package init() throws(SystemCallError) {
    var descriptor: Int32 = -1
    guard let pointer = rc_flight_recorder_create(&descriptor) else {
      throw .fromErrno("memfd_create/mmap")
    }
    self.pointer = pointer
    self.fileDescriptor = descriptor
    self.ownsFileDescriptor = true
  }

  /// Maps the recorder behind `descriptor`, a memfd inherited from the parent (child side).
  ///
  /// The descriptor stays open and is not closed by this recorder: the child may pass it on.
  package init(mappingFileDescriptor descriptor: Int32) throws(SystemCallError) {
    guard let pointer = rc_flight_recorder_map(descriptor) else { throw .fromErrno("mmap") }
    self.pointer = pointer
    self.fileDescriptor = descriptor
    self.ownsFileDescriptor = false
  }

  deinit {
    rc_flight_recorder_unmap(pointer)
    if ownsFileDescriptor { close(fileDescriptor) }
  }

  /// Marks the start of `invocation` of `scenario` and clears every thread's operation.
  @inline(__always)
  package func beginInvocation(scenario: Int, invocation: Int) {
    rc_flight_recorder_begin_invocation(pointer, Int64(scenario), Int64(invocation))
  }

  /// Records the calling thread's kernel id in slot `thread`, so a crash report can name its slot.
  ///
  /// Costs one system call: call it once when a runner thread starts, not per operation.
  package func registerThread(_ thread: Int) {
    rc_flight_recorder_register_thread(pointer, Int32(truncatingIfNeeded: thread))
  }

  /// Marks operation `index` (its position in the thread's part of the scenario) as running.
  @inline(__always)
  package func beginOperation(thread: Int, index: Int) {
    rc_flight_recorder_begin_operation(pointer, Int32(truncatingIfNeeded: thread), Int64(index))
  }

  /// Marks that thread slot `thread` has no operation running.
  @inline(__always)
  package func endOperation(thread: Int) {
    rc_flight_recorder_end_operation(pointer, Int32(truncatingIfNeeded: thread))
  }

  /// The race log in the recorder's memory, where the child's Thread Sanitizer reports go.
  package var races: UnsafeMutablePointer<rc_race_log> {
    rc_flight_recorder_races(pointer)
  }

  /// Reads what is recorded now; the parent calls it after the child died or stopped answering.
  package func snapshot() -> Snapshot {
    let scenario = rc_flight_recorder_scenario(pointer)
    let invocation = rc_flight_recorder_invocation(pointer)
    var threads: [Snapshot.ThreadState] = []
    for slot in 0..<Self.threadSlots {
      let threadID = rc_flight_recorder_tid(pointer, Int32(slot))
      let operation = rc_flight_recorder_operation(pointer, Int32(slot))
      guard threadID != 0 || operation >= 0 else { continue }
      threads.append(
        Snapshot.ThreadState(
          slot: slot, threadID: threadID != 0 ? threadID : nil,
          operation: operation >= 0 ? Int(operation) : nil))
    }
    return Snapshot(
      scenario: scenario >= 0 ? Int(scenario) : nil,
      invocation: invocation >= 0 ? Int(invocation) : nil, threads: threads)
  }

  /// A copy of a recorder's contents at one moment.
  package struct Snapshot: Hashable, Sendable {
    /// The scenario that was running, or nil before the first invocation.
    package var scenario: Int?
    /// The invocation of that scenario that was running, or nil before the first.
    package var invocation: Int?
    /// The slots that have a registered thread or an operation in flight, by slot.
    package var threads: [ThreadState]

    /// Creates a snapshot from its parts.
    package init(scenario: Int?, invocation: Int?, threads: [ThreadState]) {
      self.scenario = scenario
      self.invocation = invocation
      self.threads = threads
    }

    /// One runner-thread slot: which kernel thread holds it and which operation it runs.
    package struct ThreadState: Hashable, Sendable {
      /// The slot's index, the runner thread's number in the scenario.
      package var slot: Int
      /// The kernel thread id registered in the slot, or nil when none was.
      package var threadID: Int32?
      /// The index of the operation in flight, or nil between operations.
      package var operation: Int?

      /// Creates a slot's state from its parts.
      package init(slot: Int, threadID: Int32?, operation: Int?) {
        self.slot = slot
        self.threadID = threadID
        self.operation = operation
      }
    }

    /// The state of slot `slot`, if it has a thread or an operation.
    package func thread(inSlot slot: Int) -> ThreadState? {
      threads.first { $0.slot == slot }
    }
  }
}
