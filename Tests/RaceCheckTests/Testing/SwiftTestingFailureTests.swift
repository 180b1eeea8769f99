import RaceCheck
import RaceCheckTestSupport
import Synchronization
import Testing

extension RaceCheckTestSuite {
  struct SwiftTestingFailureTests {
    @Test func failingCheckRecordsAnIssueWithTheReport() {
      withKnownIssue {
        check(GuardedInsertArray.spec, configuration: smallConfiguration())
      } matching: { issue in
        let text = issue.comments.map(\.rawValue).joined()
        return text.contains("insert-at-count-rejected") && text.contains("RACECHECK_SEED=")
      }
    }

    @Test func passingCheckRecordsNothing() {
      let report = check(OneLockCounter.spec, configuration: smallConfiguration())
      #expect(report.verdict == .pass)
      #expect(report.invocations > 0)
    }

    @Test func throwingOperationIsReportedAsABrokenSpec() {
      withKnownIssue {
        let report = check(ThrowingSpec.spec, configuration: smallConfiguration())
        #expect(report.specError?.message.contains("the sample operation always throws") == true)
        #expect(report.specError?.history != nil)
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("the spec is broken")
      }
    }

    @Test func crashingCheckFailsTheTestWithTheSymbolizedReportAndTheTestGoesOn() {
      var report: CheckReport?
      withKnownIssue {
        report = check(CrashingArraySpec.spec, configuration: smallConfiguration())
      } matching: { issue in
        CrashingArraySpec.isSymbolizedReport(issue.comments.map(\.rawValue).joined())
      }
      // Reaching this line is the point: the crash ended the re-launched child, not this process.
      #expect(report?.failure?.kind == .crash)
      #expect(report?.failure?.diagnosis.pattern == .unsignedUnderflowBoundsCheck)
    }

    @Test func hangingCheckFailsTheTestWithEveryThreadsStack() {
      var configuration = smallConfiguration()
      configuration.hangTimeout = .milliseconds(500)
      // Every candidate of a hang's shrinking hangs for its timeout: 10 s of the default
      // shrinking spent on what this test does not look at.
      configuration.minimizes = false
      var report: CheckReport?
      withKnownIssue {
        report = check(NeverOpenedGate.spec, configuration: configuration)
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("hung")
      }
      let hang = report?.failure?.crash
      #expect(report?.failure?.kind == .hang)
      #expect(hang?.inFlight.first?.call.operation == "pass")
      #expect(
        hang?.threadStacks.contains { $0.contains("NeverOpenedGate.pass") } == true,
        "\(report.map(\.description) ?? "no report")")
    }

    @Test func reportNamesTheCallingTestInItsReplayCommand() {
      withKnownIssue {
        let report = check(GuardedInsertArray.spec, configuration: smallConfiguration())
        let command = report.replayCommand ?? ""
        #expect(command.hasPrefix("RACECHECK_SEED=0x"), "\(command)")
        #expect(
          command.hasSuffix(
            #" --filter '^RaceCheckTests\.RaceCheckTestSuite/SwiftTestingFailureTests/reportNamesTheCallingTestInItsReplayCommand\(\)/'"#
          ), "\(command)")
      }
    }

    @Test func reproOfAFailingCheckNamesTheTestAndReplayPrintsItsCommand() throws {
      var report: CheckReport?
      withKnownIssue {
        report = check(GuardedInsertArray.spec, configuration: smallConfiguration())
      }
      guard case .written(let path) = report?.failure?.repro else {
        Issue.record("no repro file: \(report?.description ?? "no report")")
        return
      }
      #expect(path.contains("/GuardedInsertArray-0x"), "\(path)")
      #expect(
        path.contains(".stress.test-reproOfAFailingCheckNamesTheTestAndReplayPrintsItsCommand-"))
      let id =
        "RaceCheckTests.RaceCheckTestSuite/SwiftTestingFailureTests/"
        + "reproOfAFailingCheckNamesTheTestAndReplayPrintsItsCommand()"
      guard case .test(id, _) = try Repro.read(from: path).configuration.origin else {
        Issue.record("the repro names no test: \(path)")
        return
      }
      let replayCommand = try #require(report?.replayCommand)
      let errors = CollectedLines()
      let status = CommandLineDriver(targets: [], programName: "racecheck").run(
        ["replay", path], output: CommandOutput { _ in }, errors: CommandOutput(errors.append))
      #expect(status == 65)
      #expect(
        errors.lines == [
          "racecheck: \(path): recorded by the test \(id) for target 'GuardedInsertArray', which "
            + "this program does not know; the test replays it: \(replayCommand)"
        ])
    }
  }
}

/// The lines a command line wrote to one of its outputs.
private final class CollectedLines: Sendable {
  private let collected = Mutex<[String]>([])

  var lines: [String] { collected.withLock { $0 } }

  @Sendable func append(_ line: String) {
    collected.withLock { $0.append(line) }
  }
}
