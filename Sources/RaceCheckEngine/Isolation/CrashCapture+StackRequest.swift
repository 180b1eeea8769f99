import CRaceCheckSupport

/// The parent's side of a hang: asking every thread of a child for its stack.
extension CrashCapture {
  /// Sends `SIGPROF` to every thread of `process`; each writes a `kind=stack` record.
  ///
  /// Returns how many threads were signalled, which is how many records to wait for (a thread
  /// that exits meanwhile sends none, so wait with a deadline). The child must have called
  /// ``install(reportingTo:flightRecorder:)``: `SIGPROF`'s default action ends a process.
  package static func requestStacks(fromProcess process: Int32) throws(SystemCallError) -> Int {
    let signalled = rc_request_stacks(process)
    guard signalled >= 0 else { throw .fromErrno("opendir /proc/\(process)/task") }
    return Int(signalled)
  }
}
