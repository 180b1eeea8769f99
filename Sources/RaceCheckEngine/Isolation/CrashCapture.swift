import CRaceCheckSupport
import Synchronization

/// The child's side of crash capture: signal handlers that write a crashing thread's stack.
///
/// A child installs it once, before running code under test; from then on a trap, a bad access
/// or an abort writes a ``CrashRecord`` to the report descriptor and kills the child with the
/// same signal, and a `SIGPROF` from the parent makes the receiving thread write its stack.
///
/// ```swift
/// try CrashCapture.install(reportingTo: 3, flightRecorder: recorder)
/// try CrashCapture.prepareThread()  // on each runner thread
/// ```
package enum CrashCapture {
  /// The recorder the handlers read, kept alive for as long as they may run.
  private static let retainedRecorder = Mutex<FlightRecorder?>(nil)

  /// Installs the crash and stack handlers, writing records to `descriptor`.
  ///
  /// `flightRecorder` adds the scenario, the invocation and the crashing thread's operation to
  /// each record. Installation also gives the calling thread an alternate signal stack and turns
  /// off core files (the record is the report). Handles SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT,
  /// SIGTRAP and SIGPROF.
  package static func install(reportingTo descriptor: Int32, flightRecorder: FlightRecorder? = nil)
    throws(SystemCallError)
  {
    retainedRecorder.withLock { $0 = flightRecorder }
    guard rc_install_crash_handler(descriptor, flightRecorder?.pointer) == 0 else {
      throw .fromErrno("sigaction")
    }
  }

  /// Gives the calling thread an alternate signal stack, so its stack overflow is still reported.
  ///
  /// Runner threads call it when they start; the stack is freed when the thread exits. Threads
  /// that never call it (dispatch workers) still report crashes, but not their stack overflows.
  package static func prepareThread() throws(SystemCallError) {
    guard rc_prepare_thread() == 0 else { throw .fromErrno("sigaltstack") }
  }
}
