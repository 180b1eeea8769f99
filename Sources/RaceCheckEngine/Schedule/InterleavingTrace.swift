/// The interleaving of one schedule: each thread's operations and the primitive steps inside them, in the order they ran.
package struct InterleavingTrace: Hashable, Sendable, Codable {
  /// One line of the trace.
  package struct Step: Hashable, Sendable, Codable {
    /// The controlled thread that took the step.
    package var thread: Int
    /// What happened, such as `queue.sync enter 'q'` or `cell read → 3`.
    package var text: String
    /// Whether the line starts an operation rather than showing a primitive step inside one.
    package var isOperation: Bool
  }

  /// The name of each controlled thread, by number: `Thread 0` for a column, `Block 2 on 'q'` for an async block.
  package var threadNames: [String]
  /// The steps, in the order they ran.
  package var steps: [Step]
  /// The thread chosen at each scheduling point: the schedule, which replays the trace exactly.
  package var schedule: [Int]
  /// The positions in ``schedule`` where another thread was chosen although the running one could go on: the schedule's preemptions.
  package var preemptionSteps: [Int]?

  /// The steps the schedule ran after an explored body's first failed expectation, which the trace leaves out.
  package var stepsAfterTheFailure: Int?

  /// The number of preemptions, or nil for a trace that did not count them.
  package var preemptions: Int? { preemptionSteps?.count }

  /// The number of times the running thread changed.
  package var switches: Int {
    zip(steps, steps.dropFirst()).filter { $0.thread != $1.thread }.count
  }

  /// The schedule as `RACECHECK_SCHEDULE` takes it: the chosen thread numbers, run-length (``ScheduleChoices``).
  package var scheduleString: String {
    ScheduleChoices(schedule).description
  }

  /// `11 steps, 2 switches, 1 preemption, shrunk from 2`: the trace's size as report headings give it, with how many preemptions the schedule first found had, when it was shrunk to fewer.
  package func summary(preemptionsBeforeShrinking: Int? = nil) -> String {
    var summary = "\(steps.count) steps, \(switches) switch\(switches == 1 ? "" : "es")"
    if let preemptions {
      summary += ", \(preemptions) preemption\(preemptions == 1 ? "" : "s")"
      if let before = preemptionsBeforeShrinking { summary += ", shrunk from \(before)" }
    }
    return summary
  }
}
