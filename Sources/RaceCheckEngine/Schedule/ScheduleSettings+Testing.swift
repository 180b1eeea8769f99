extension ScheduleSettings {
  /// A crash racecheck's tests make the scheduler's own code commit, to see it reported as racecheck's.
  ///
  /// No check a user starts sets it: it travels in the configuration only so that an isolated
  /// child, which gets its settings from the parent, commits it where a real bug would be.
  package enum InjectedFault: String, Hashable, Sendable, Codable {
    /// The scheduler's hook for a stored-property access writes through a bad pointer.
    case crashInAccessHook
  }
}

extension ControlledScheduler {
  /// Crashes with SIGSEGV in the scheduler's own frame, as a bug of its bookkeeping would.
  @inline(never)
  func commitInjectedFault() {
    UnsafeMutablePointer<Int>(bitPattern: 0x10)!.pointee = 1
  }
}
