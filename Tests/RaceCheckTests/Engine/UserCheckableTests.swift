import Foundation
import RaceCheck
import RaceCheckTestSupport
import Synchronization
import Testing

@testable import RaceCheckEngine

// A user's own `Checkable`, declared here as a user would (not a `Spec`), gets what a spec
// gets: an isolated check from a test, repro files that `replay` runs again, interruption and
// progress. Each capability goes through the conformance's `spec`, not a cast to a spec.

extension RaceCheckTestSuite {
  @Suite struct UserCheckableTests {
    @Test func aCrashOfItsSubjectIsReportedFromAnIsolatedChildAndTheTestGoesOn() throws {
      var report: CheckReport?
      withKnownIssue {
        report = check(TrappingCounterCheck(limit: 1), configuration: smallConfiguration())
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("TrappingCounter-1")
      }
      // Reaching this line is the point: the trap ended the re-launched test binary, not this one.
      let failure = try #require(report?.failure, "\(report.map(\.description) ?? "no report")")
      #expect(failure.kind == .crash)
      let crash = try #require(failure.crash)
      #expect(crash.stack.contains("TrappingCounter.increment"), "\(crash.stack)")
      #expect(crash.standardError?.contains("incremented past its limit") == true)
      #expect(report?.replayCommand?.hasPrefix("RACECHECK_SEED=0x") == true)
    }

    @Test func itsReproWrittenByRunIsReplayedByReplay() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let driver = CLI.driver(targets: [Target(CappedCounterCheck(cap: 1), summary: "stops at 1")])
      let run = CLI.invoke(
        [
          "run", "CappedCounter-1", "--scenarios", "3", "--invocations", "50", "--repro-dir",
          directory.path, "--json",
        ], driver: driver)
      #expect(run.status == 1, "\(run.output)\(run.errors)")
      let path = try #require(run.jsonObject?["reproPath"] as? String, "\(run.output)")
      let replay = CLI.invoke(["replay", path], driver: driver)
      #expect(replay.status == 1, "\(replay.output)\(replay.errors)")
      let first = try #require(replay.outputLines.first)
      #expect(first.hasPrefix("Replayed \(path): the failure showed again, in "), "\(first)")
    }

    /// Rows 23 and 24 of the catalogue are a `Checkable` of their own, not a `Spec`: the `racecheck` executable's worker child serves them through their `spec`.
    @Test func theExecutableChecksACatalogueRowOfItsOwnTypeInAChild() throws {
      let run = try RacecheckProcess.run([
        "run", "TrappingSubscriptArray", "--scenarios", "3", "--invocations", "50",
        "--repro-dir", FileManagerTemporary.directory,
      ])
      #expect(run.status == 0, "\(run.output)\(run.errors)")
      #expect(run.output.hasPrefix("racecheck: TrappingSubscriptArray passed: "), "\(run.output)")
    }

    @Test func theExecutableReplaysAReproOfACatalogueRowOfItsOwnTypeInAChild() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      // A correct array's append and count: the recorded failure cannot show again, so the
      // replay runs out its time, in a child that serves the row through its `spec`.
      var configuration = Configuration(seed: 1)
      configuration.origin = .program("racecheck")
      let repro = Repro(
        target: "TrappingSubscriptArray", seed: 1, scenarioIndex: 0,
        configuration: configuration,
        scenario: Scenario(initial: [Scenario.Call("append", [.int(1)]), Scenario.Call("count")]),
        diagnosis: nil, failure: .nonLinearizable)
      let path = directory.path + "/TrappingSubscriptArray-repro.json"
      try JSONEncoder().encode(repro).write(to: URL(fileURLWithPath: path))
      let replay = try RacecheckProcess.run(["replay", path, "--time", "0.5"])
      #expect(replay.status == 3, "\(replay.output)\(replay.errors)")
      #expect(
        replay.output.hasPrefix("Replayed \(path): inconclusive: the failure did not show in "),
        "\(replay.output)")
    }

    @Test func aTargetOfItReportsProgressAndStopsWhenInterrupted() {
      let interruption = Interruption.never
      let seen = Mutex<[CheckProgress]>([])
      let report = Target(CappedCounterCheck(cap: 100)).check(
        smallConfiguration(), worker: nil, interruption: interruption,
        progress: { progress in
          seen.withLock { $0.append(progress) }
          interruption.raiseForTesting(SIGINT)
        })
      guard case .inconclusive(.interrupted(let signal)) = report.outcome else {
        Issue.record("expected an interruption, got \(report.outcome)")
        return
      }
      #expect(signal == SIGINT)
      let targets = seen.withLock { $0.map(\.target) }
      #expect(targets.first == "CappedCounter-100", "\(targets)")
    }
  }
}

/// A counter that traps on an increment past `limit`, as code whose precondition a scenario breaks.
final class TrappingCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  private let limit: Int

  init(limit: Int) { self.limit = limit }

  var count: Int { lock.withLock { value } }

  func increment() {
    lock.withLock {
      precondition(value < limit, "incremented past its limit")
      value += 1
    }
  }
}

/// A user's checkable of trapping counters, one spec per limit.
struct TrappingCounterCheck: Checkable {
  var limit: Int

  var spec: Spec<TrappingCounter, CounterModel> {
    Spec(
      "TrappingCounter-\(limit)", make: { [limit] in TrappingCounter(limit: limit) },
      operations: {
        Operation("get") { (counter: TrappingCounter) in counter.count }
        Operation("increment") { (counter: TrappingCounter) in counter.increment() }
      })
  }
}

/// A counter that stops counting at `cap`: wrong, even on one thread, once a scenario increments it past the cap.
final class CappedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  private let cap: Int

  init(cap: Int) { self.cap = cap }

  var count: Int { lock.withLock { value } }

  func increment() { lock.withLock { value = min(value + 1, cap) } }
}

/// A user's checkable of capped counters, one spec per cap.
struct CappedCounterCheck: Checkable {
  var cap: Int

  var spec: Spec<CappedCounter, CounterModel> {
    Spec(
      "CappedCounter-\(cap)", make: { [cap] in CappedCounter(cap: cap) },
      operations: {
        Operation("get") { (counter: CappedCounter) in counter.count }
        Operation("increment") { (counter: CappedCounter) in counter.increment() }
      })
  }
}
