import RaceCheck

extension Catalogue {
  /// What `racecheck demo --mode schedule` expects of each row where it differs from stress mode, by target name.
  ///
  /// Schedule mode sees which primitive each access went through, so it names the four data
  /// races specifically where stress mode can only give the family name, and it reaches the
  /// rows whose stress verdict depends on luck. Row 18 has three bugs: schedule mode also sees
  /// its snapshot read Foundation's storage outside the queue while a barrier block writes it,
  /// and names that one when the minimized failure shows it.
  public static let scheduleExpectations: [String: Expectation] = [
    "UnsafeArray": .fail(.unsynchronizedAccess),
    "SomeStringConcurrentNoBarrier": .fail(.concurrentQueueWithoutBarrier),
    "AtomicPropertyArray": .fail(.atomicReferenceNonAtomicContents),
    "GlobalQueueBarrierArray": .fail(.barrierOnGlobalQueue),
    "ZHMutableArray": .fail(.insertAtCountRejected, or: [.escapedLiveStorage]),
    "ReentrantSyncArray": .fail(.syncOnCurrentQueue),
    // A schedule that runs the read in the middle of a write's modify access can crash on
    // the string the write moved out before the scheduler names the access: that death is
    // named by its family (seeds 2, 4, 6 and 7 of 1 to 10).
    "MainThreadSkipsLock": .fail(.unsynchronizedAccess, or: [.dataRace]),
    // Row 26's shape on integers: no read meets freed memory, so only the specific name will do.
    "LockedWriteUnlockedRead": .fail(.unsynchronizedAccess),
    // Row 37 counts its writes in an `Atomic`, whose order the scheduler cannot see: it says
    // so rather than pass.
    "MutexStore": .inconclusive,
    // Row 36's check reads the balance without the lock its write holds: Thread Sanitizer sees
    // that read (`unsynchronized-access`); without it the global Mutex is unseen, and the crash
    // keeps the family name.
    "GlobalMutexAccount": .fail(.dataRace, or: [.unsynchronizedAccess]),
  ]

  /// What stress mode expects in a `--sanitize=thread` build where it differs, by target name: schedule mode's.
  ///
  /// Thread Sanitizer sees the four data races from happens-before, whether or not the bad
  /// interleaving happened, and racecheck's interposer tells it what guarded each access, so
  /// they get the specific names schedule mode gives them; it also sees row 18's snapshot read
  /// the storage a barrier block writes. (Row 22's entry is its stress expectation.) What the
  /// scheduler cannot see and says so of (row 37's `Atomic`), the sanitizer sees: those rows keep
  /// their stress expectation.
  public static var sanitizerExpectations: [String: Expectation] {
    scheduleExpectations.filter { $0.value.verdict != .inconclusive }
  }

  /// Rows whose code can trap under the scheduler as it does under stress: schedule mode checks them only in an isolated child.
  ///
  /// Rows 7 and 8 trap on a bad index in every schedule that reaches it. Rows 2 and 18 read
  /// Foundation's storage outside their queue, and a schedule that runs a removal between two
  /// of those reads traps in `NSArray.object(at:)`. Rows 23 and 24 trap by contract, which only
  /// an isolated child can excuse, and row 26's read may meet a string a write released. Row
  /// 36 traps inside a global Mutex, which the scheduler does not model.
  public static let rowsCrashingInScheduleMode: Set<Int> = [2, 7, 8, 18, 23, 24, 26, 36]

  /// Every fixture's target with its schedule-mode and Thread Sanitizer expectations set, for the command line.
  public static func withModeExpectations(_ targets: [Target]) -> [Target] {
    let all = fixtures + isolatedFixtures
    return targets.map { target in
      var target = target
      guard let fixture = all.first(where: { $0.target.name == target.name }) else { return target }
      target.scheduleExpectation =
        scheduleExpectations[target.name] ?? fixture.target.expectation
      target.sanitizerExpectation = sanitizerExpectations[target.name]
      return target
    }
  }
}
