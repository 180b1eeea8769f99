import RaceCheckEngine

/// What a page shows of one failure, found by a check or a replay: the diagnosis, the history with its marks, the scenario, the interleaving and the stacks.
struct FailureHTML {
  /// What the failure showed.
  var evidence: Evidence
  /// The named bug, when there is one.
  var diagnosis: Diagnosis?
  /// What the scheduler noticed besides the failure.
  var findings: [Diagnosis] = []
  /// The scenario that failed.
  var scenario: Scenario
  /// Schedule mode: the interleaving of the failing schedule.
  var trace: InterleavingTrace?
  /// Schedule mode: the preemptions of the schedule first found, when the trace's was shrunk to fewer.
  var preemptionsBeforeShrinking: Int? = nil
  /// The operations that return nothing, whose results are left out.
  var voidOperations: Set<String>
  /// The smallest failing window of a non-linearizable history, as entry indexes, when it was worked out.
  var window: [Int]?

  /// Appends the failure's sections to `page`.
  func append(to page: inout HTMLPage) {
    if let diagnosis {
      var html =
        "<p class=\"diagnosis\" data-pattern=\"\(diagnosis.pattern.rawValue)\">"
        + "<code>\(diagnosis.pattern.rawValue)</code> \(HTMLText.escaped(diagnosis.evidence))</p>"
      for finding in findings {
        html +=
          "<p class=\"finding\">Also seen: <code>\(finding.pattern.rawValue)</code> "
          + "\(HTMLText.escaped(finding.evidence))</p>"
      }
      page.append(HTMLFragment.section("Diagnosis", class: "diagnosis-section", html))
    }
    switch evidence {
    case .nonLinearizable(let history, let explanation):
      let timeline = Timeline(
        history: history, explanation: explanation, window: window,
        voidOperations: voidOperations)
      page.append("<section class=\"explanation\"><h2>Why no order works</h2>")
      page.appendTimeline(
        timeline,
        caption: "The failing history: each thread a lane, each operation a bar from its call "
          + "to its return, labelled with its arguments and result.")
      page.append(timeline.marksHTML + "</section>")
    case .dataRace(let history):
      appendHistory(
        history, "The history of the racing schedule; the race is in its interleaving.", to: &page)
    case .deadlock(let history):
      appendHistory(history, "The calls made up to the deadlock.", to: &page)
    case .stepBound(let history):
      appendHistory(history, "The calls made up to the step bound.", to: &page)
    case .failedExpectation(_, let failures):
      page.append(
        HTMLFragment.section(
          "Failed expectations", class: "expectations-section",
          HTMLFragment.preformatted(
            failures.map(\.description).joined(separator: "\n"), class: "expectations")))
    case .sanitizerRace(let race, let aftermath):
      page.append(Self.raceHTML(race))
      switch aftermath {
      case .finished(let history):
        appendHistory(history, "The invocation's history; it ran to its end.", to: &page)
      case .died(let crash):
        page.append(Self.crashHTML(crash, heading: "Then the child died"))
      }
    case .death(let crash):
      let heading =
        switch crash.kind {
        case .crash: "Crash"
        case .hang: "Hang: every thread's stack"
        case .exit: "Early exit"
        }
      page.append(Self.crashHTML(crash, heading: heading))
    }
    let results =
      evidence.kind == .nonLinearizable ? evidence.history.map { $0.operations.map(\.result) } : nil
    page.append(
      HTMLFragment.section(
        "Scenario", class: "scenario-section",
        HTMLFragment.preformatted(
          ScenarioTable(scenario: scenario, results: results, voidOperations: voidOperations)
            .render(), class: "scenario")))
    if let trace {
      page.append(
        HTMLFragment.section(
          "Interleaving (\(trace.summary(preemptionsBeforeShrinking: preemptionsBeforeShrinking)))",
          class: "interleaving-section", trace.html))
    }
  }

  private func appendHistory(_ history: History, _ caption: String, to page: inout HTMLPage) {
    page.append("<section class=\"history\"><h2>History</h2>")
    page.appendTimeline(
      Timeline(
        history: history, explanation: nil, window: nil, voidOperations: voidOperations),
      caption: caption)
    page.append("</section>")
  }

  /// A crash, a hang or an early exit: how the child ended, the calls in flight and the symbolized stacks.
  static func crashHTML(_ crash: CrashEvidence, heading: String) -> String {
    var facts: [HTMLFragment.Fact] = [.text("outcome", "Outcome", "It \(crash.outcome).")]
    if let thread = crash.runnerThread {
      facts.append(.text("thread", "Crashing thread", "thread \(thread), a racecheck thread"))
    } else if let name = crash.threadName {
      facts.append(.text("thread", "Crashing thread", name))
    }
    if let invocation = crash.invocation {
      facts.append(.text("invocation", "Invocation", String(invocation + 1)))
    }
    facts.append(
      .text(
        "in-flight", "In flight",
        crash.inFlight.isEmpty
          ? "no call"
          : crash.inFlight.map { "\($0.call) on thread \($0.thread)" }.joined(separator: ", ")))
    var html = HTMLFragment.facts(facts)
    if crash.kind == .crash {
      html +=
        "<h3>The crashing thread's stack</h3>"
        + HTMLFragment.preformatted(crash.stack, class: "stack")
    }
    for stack in crash.threadStacks {
      html += HTMLFragment.preformatted(stack, class: "stack")
    }
    if let standardError = crash.standardError {
      html +=
        "<h3>The child's standard error ended with</h3>"
        + HTMLFragment.preformatted(
          standardError.split(separator: "\n", omittingEmptySubsequences: false).suffix(10)
            .joined(separator: "\n"), class: "standard-error")
    }
    return HTMLFragment.section(heading, class: "crash", html)
  }

  /// The two accesses Thread Sanitizer saw, each with its stack.
  private static func raceHTML(_ race: SanitizerRace) -> String {
    var html =
      "<p>The two accesses to <code>0x\(String(race.address, radix: 16))</code>, which no "
      + "happens-before order separates:</p>"
    for (heading, access) in [("Later", race.later), ("Earlier", race.earlier)] {
      html +=
        "<h3>\(heading) \(access.isWrite ? "write" : "read") by \(HTMLText.escaped(access.maker)), "
        + "\(HTMLText.escaped(access.guarding))</h3>"
        + HTMLFragment.preformatted(access.stack, class: "stack")
    }
    return HTMLFragment.section("Data race (Thread Sanitizer)", class: "sanitizer-race", html)
  }
}
