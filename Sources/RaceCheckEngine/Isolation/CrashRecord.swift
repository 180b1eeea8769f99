/// One thread's stack as a child's signal handler wrote it: after a crash, or on request in a hang.
///
/// The parent parses records from the report pipe with ``parse(_:)`` once the child died or
/// answered a stack request. Frames are raw: a program counter and, where the child could
/// place it, the module's path and the offset to hand to a symbolizer.
///
/// ```swift
/// let records = CrashRecord.parse(reportText)
/// let crash = records.first { $0.kind == .crash }
/// ```
package struct CrashRecord: Hashable, Sendable {
  /// Why the record was written.
  package enum Kind: String, Hashable, Sendable {
    /// The child crashed on this thread and died right after writing the record.
    case crash
    /// The parent asked for every thread's stack (`SIGPROF`); the child lived on.
    case stack
  }

  /// Why the record was written.
  package var kind: Kind
  /// The signal number that was handled (`SIGILL` for Swift traps, `SIGPROF` for a stack request).
  package var signal: Int32
  /// The signal's `si_code`, which says how it was raised (a fault kind, or sent by a process).
  package var code: Int32
  /// The faulting address for kernel-generated faults (`si_code` > 0), otherwise 0.
  package var address: UInt
  /// The child's process id.
  package var processID: Int32
  /// The kernel id of the thread that wrote the record.
  package var threadID: Int32
  /// The thread's name (at most 15 bytes, the kernel's limit).
  package var threadName: String
  /// The scenario the flight recorder had as running, or nil when unknown.
  package var scenario: Int?
  /// The invocation the flight recorder had as running, or nil when unknown.
  package var invocation: Int?
  /// The runner-thread slot registered for this thread, or nil (not a runner thread).
  package var slot: Int?
  /// The operation that thread had in flight, or nil between operations.
  package var operation: Int?
  /// Whether the thread was running the scheduler's own code when it was interrupted, not code under test.
  ///
  /// The interposer switches a controlled thread to its scheduler mode for as long as a hook
  /// runs the scheduler's bookkeeping, so a crash in that mode is racecheck's fault.
  package var ranScheduler: Bool
  /// The stack, innermost first: frame 0 is the interrupted instruction, the rest return addresses.
  package var frames: [RawFrame]
  /// True when the record was cut short: its `end` line or some of its frames never arrived.
  package var isTruncated: Bool

  /// Creates a record from its parts.
  package init(
    kind: Kind, signal: Int32, code: Int32 = 0, address: UInt = 0, processID: Int32 = 0,
    threadID: Int32, threadName: String = "", scenario: Int? = nil, invocation: Int? = nil,
    slot: Int? = nil, operation: Int? = nil, ranScheduler: Bool = false, frames: [RawFrame] = [],
    isTruncated: Bool = false
  ) {
    self.kind = kind
    self.signal = signal
    self.code = code
    self.address = address
    self.processID = processID
    self.threadID = threadID
    self.threadName = threadName
    self.scenario = scenario
    self.invocation = invocation
    self.slot = slot
    self.operation = operation
    self.ranScheduler = ranScheduler
    self.frames = frames
    self.isTruncated = isTruncated
  }

  /// The signal's conventional name (`SIGILL`), or `signal <n>` for one without a common name.
  package var signalName: String {
    Self.signalNames[signal] ?? "signal \(signal)"
  }

  /// Names of the signals a child can die of or be asked with, by their Linux x86_64 numbers.
  private static let signalNames: [Int32: String] = [
    1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT",
    7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2",
    13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM", 24: "SIGXCPU", 25: "SIGXFSZ", 27: "SIGPROF",
    31: "SIGSYS",
  ]
}
