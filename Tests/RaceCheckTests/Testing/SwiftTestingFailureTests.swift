import RaceCheck
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
  }
}
