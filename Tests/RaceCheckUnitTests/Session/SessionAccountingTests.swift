import Foundation
import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

#if canImport(Glibc)
  import Glibc
#endif

extension UnitTestSuite {
  /// The session claims a pass only when every planned scenario reached its budget, and says why otherwise: checked over a scripted runner, with no threads.
  @Suite struct SessionAccountingTests {
    /// A runner that answers each request from a script and counts what it was asked.
    final class ScriptedRunner: ScenarioRunning {
      /// The answer to the request with this sequence number (0 first).
      let answer: (Int, RunRequest) throws(RunError) -> RunResult
      private(set) var requests: [RunRequest] = []
      private(set) var shutDowns = 0

      init(_ answer: @escaping (Int, RunRequest) throws(RunError) -> RunResult) {
        self.answer = answer
      }

      func run(_ request: RunRequest) throws(RunError) -> RunResult {
        requests.append(request)
        return try answer(requests.count - 1, request)
      }

      func shutDown() { shutDowns += 1 }
    }

    /// A result that explored the request's whole budget and found nothing.
    static func explored(_ request: RunRequest) -> RunResult {
      RunResult(
        invocations: request.invocations, overlappingInvocations: request.invocations,
        distinctOutcomes: 1, chanceOfNewResults: 0)
    }

    static let configuration = Configuration(
      seed: 7, scenarios: 4, invocations: 20, isolated: false)

    /// The report of a session of the sample array spec over `runner`.
    static func check(
      _ runner: ScriptedRunner, configuration: Configuration = configuration,
      interruption: Interruption? = nil
    ) -> CheckReport {
      CheckSession(
        spec: LockedArray.spec, configuration: configuration, runner: runner,
        interruption: interruption
      ).run()
    }

    @Test func everyScenarioAtItsBudgetIsAPass() {
      let runner = ScriptedRunner { _, request in Self.explored(request) }
      let report = Self.check(runner)
      guard case .passed = report.outcome else {
        Issue.record("expected a pass, got \(report.outcome)")
        return
      }
      #expect(report.search.scenarios == 4)
      #expect(report.search.plannedScenarios == 4)
      #expect(report.search.invocations == 80)
      #expect(runner.requests.count == 4)
      #expect(runner.shutDowns == 1)
    }

    @Test func aScenarioStoppedAtTheInvocationCapMakesThePassInconclusive() {
      let runner = ScriptedRunner { sequence, request in
        var result = Self.explored(request)
        if sequence == 2 {
          result.overlappingInvocations = 3
          result.capped = true
        }
        return result
      }
      let report = Self.check(runner)
      guard case .inconclusive(.littleOverlap(let scenarios, _)) = report.outcome else {
        Issue.record("expected little overlap, got \(report.outcome)")
        return
      }
      #expect(scenarios == 1)
      #expect(report.search.cappedScenarios == 1)
    }

    @Test func synchronizationTheSchedulerCouldNotSeeMakesThePassInconclusive() {
      let runner = ScriptedRunner { sequence, request in
        var result = Self.explored(request)
        result.noteUnseen(sequence == 1 ? ["os_unfair_lock", "Atomic"] : ["Atomic"])
        return result
      }
      let report = Self.check(runner)
      guard case .inconclusive(.unseenSynchronization(let names)) = report.outcome else {
        Issue.record("expected unseen synchronization, got \(report.outcome)")
        return
      }
      #expect(names == ["Atomic", "os_unfair_lock"])
    }

    @Test func aSignalDuringAScenarioEndsTheCheckWithWhatItExplored() {
      let interruption = Interruption.never
      let runner = ScriptedRunner { sequence, request in
        if sequence == 1 { interruption.raiseForTesting(SIGINT) }
        return Self.explored(request)
      }
      let report = Self.check(runner, interruption: interruption)
      guard case .inconclusive(.interrupted(let signal)) = report.outcome else {
        Issue.record("expected an interruption, got \(report.outcome)")
        return
      }
      #expect(signal == SIGINT)
      // The scenario the signal arrived in is not counted as explored; its invocations are kept.
      #expect(report.search.scenarios == 1)
      #expect(report.search.invocations == 40)
      #expect(runner.requests.count == 2)
      #expect(runner.shutDowns == 1)
    }

    @Test func aTimeLimitAlreadyPassedExploresNothingAndSaysSo() {
      var configuration = Self.configuration
      configuration.timeLimit = .zero
      let runner = ScriptedRunner { _, request in Self.explored(request) }
      let report = Self.check(runner, configuration: configuration)
      guard case .inconclusive(.timeLimit(let scenarios, let planned)) = report.outcome else {
        Issue.record("expected the time limit, got \(report.outcome)")
        return
      }
      #expect(scenarios == 0)
      #expect(planned == 4)
    }

    @Test func anOperationThatThrewIsASpecErrorNamingItsScenario() {
      let runner = ScriptedRunner { sequence, request throws(RunError) in
        guard sequence < 1 else { throw .operationThrew(SpecError(message: "append threw")) }
        return Self.explored(request)
      }
      let report = Self.check(runner)
      guard case .specError(let error) = report.outcome else {
        Issue.record("expected a spec error, got \(report.outcome)")
        return
      }
      #expect(error.message == "append threw")
      #expect(error.scenario == runner.requests[1].scenario)
      #expect(runner.shutDowns == 1)
    }

    @Test func aFailureIsShrunkDiagnosedAndWrittenAsARepro() throws {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("racecheck-session-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: directory) }
      var configuration = Self.configuration
      configuration.reproDirectory = directory
      configuration.shrinkTimeLimit = .seconds(60)
      // Every scenario of two or more calls "fails" with a history no order explains.
      let runner = ScriptedRunner { _, request in
        var result = Self.explored(request)
        guard request.scenario.allCalls.count >= 2 else { return result }
        result.failures = 1
        result.failure = ObservedFailure(
          evidence: .nonLinearizable(
            History(operations: [.made(0, "count", [], 0, 1, result: .int(5))]),
            Explanation(longestPrefix: [], state: "[]", candidates: [])))
        return result
      }
      let report = Self.check(runner, configuration: configuration)
      guard case .failed(let failure) = report.outcome else {
        Issue.record("expected a failure, got \(report.outcome)")
        return
      }
      #expect(failure.scenario.allCalls.count == 2, "\(failure.scenario)")
      guard case .written(let path) = failure.repro else {
        Issue.record("no repro: \(failure.repro)")
        return
      }
      #expect(try Repro.read(from: path).scenario == failure.scenario)
      #expect(runner.shutDowns == 1)
    }
  }
}
