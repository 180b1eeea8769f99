/// The faults a workload injects into the processes it was given while its clients run, as Jepsen's nemesis does.
///
/// Faults come one at a time: each begins after a quiet spell, lasts its time, and is
/// healed (the process continued, or started again) before the next. Every fault is
/// recorded in the history (``RecordedHistory/faults``) with when it began and ended, and
/// the reports draw it beside the operations. A fault still on when the clients stop is
/// healed then.
///
/// ```swift
/// let nemesis = Nemesis.pauses(of: cluster.faultTargets, every: .seconds(2), lasting: .seconds(1))
/// ```
public struct Nemesis: Sendable {
  /// One fault: what is done to a process, and for how long.
  public enum Fault: Hashable, Sendable {
    /// Stops the process (`SIGSTOP`) for this long, then continues it (`SIGCONT`).
    case pause(Duration)
    /// Kills the process (`SIGKILL`) and starts it again this long after.
    case kill(restartAfter: Duration)

    /// How long the fault lasts.
    var length: Duration {
      switch self {
      case .pause(let length), .kill(let length): length
      }
    }

    /// The kind a history records.
    var kind: RecordedHistory.Fault.Kind {
      switch self {
      case .pause: .pause
      case .kill: .kill
      }
    }
  }

  /// A fault at a fixed time: ``Nemesis/init(targets:schedule:)``'s plan.
  public struct ScheduledFault: Hashable, Sendable {
    /// When it begins, from the start of the workload.
    public var at: Duration
    /// What is done.
    public var fault: Fault
    /// The target's name.
    public var target: String

    /// Creates a fault `fault` against `target`, `at` after the workload starts.
    public init(at: Duration, _ fault: Fault, target: String) {
      self.at = at
      self.fault = fault
      self.target = target
    }
  }

  /// When faults come.
  enum Plan: Sendable {
    /// These, in order of their times.
    case fixed([ScheduledFault])
    /// One of `faults` against a target chosen at random (from the workload's seed), after each quiet spell of `quiet`.
    case random(faults: [Fault], quiet: Duration)
  }

  /// The processes faults may touch.
  public var targets: [Nemesis.Target]
  let plan: Plan

  /// A nemesis that injects `schedule`'s faults at their times.
  public init(targets: [Nemesis.Target], schedule: [ScheduledFault]) {
    self.targets = targets
    plan = .fixed(schedule.sorted { $0.at < $1.at })
  }

  /// A nemesis that, after every quiet spell of `quiet`, injects one of `faults` into a target chosen at random.
  public init(targets: [Nemesis.Target], randomly faults: [Fault], every quiet: Duration) {
    self.targets = targets
    plan = .random(faults: faults, quiet: quiet)
  }

  /// A nemesis that pauses a target chosen at random for `length`, after every quiet spell of `quiet`.
  public static func pauses(
    of targets: [Nemesis.Target], every quiet: Duration, lasting length: Duration
  ) -> Nemesis {
    Nemesis(targets: targets, randomly: [.pause(length)], every: quiet)
  }

  /// A nemesis that kills a target chosen at random and starts it again after `downtime`, after every quiet spell of `quiet`.
  public static func kills(
    of targets: [Nemesis.Target], every quiet: Duration, restartingAfter downtime: Duration
  ) -> Nemesis {
    Nemesis(targets: targets, randomly: [.kill(restartAfter: downtime)], every: quiet)
  }

  /// Says why this nemesis cannot run, or nothing when it can.
  func validate(workload: String) throws(WorkloadError) {
    guard !targets.isEmpty else { throw WorkloadError(.noFaultTargets, workload: workload) }
    let names = targets.map(\.name)
    let planned: [(Fault, String?)]
    switch plan {
    case .fixed(let schedule): planned = schedule.map { ($0.fault, $0.target) }
    case .random(let faults, let quiet):
      guard quiet > .zero else {
        throw WorkloadError(
          .notPositive(what: "the nemesis's quiet spell", quiet), workload: workload)
      }
      planned = faults.map { ($0, nil) }
    }
    for (fault, name) in planned {
      if let name, !names.contains(name) {
        throw WorkloadError(.noSuchFaultTarget(name, known: names), workload: workload)
      }
      if case .kill = fault {
        let killed = targets.filter { name == nil || $0.name == name }
        if let unrestartable = killed.first(where: { $0.restart == nil }) {
          throw WorkloadError(.cannotRestart(unrestartable.name), workload: workload)
        }
      }
    }
  }
}
