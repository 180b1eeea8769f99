extension Operation {
  /// This operation, run on the process's main thread only: scenarios draw it for thread 0 and the init and post parts.
  ///
  /// Thread 0 then runs on the main thread (``Spec/runsThreadZeroOnMainThread``), from a
  /// test as from an executable: a check from a test that does not run on the main
  /// thread hands thread 0's work to it through the main queue. Use it for methods that
  /// behave differently there (`Thread.isMainThread`) or must only be called there.
  ///
  /// ```swift
  /// Operation("read") { (register: Register) in register.value }.onMainThread()
  /// ```
  ///
  /// - Returns: The operation, marked to run on the main thread.
  public func onMainThread() -> Operation {
    var operation = self
    operation.runsOnMainThread = true
    return operation
  }
}
