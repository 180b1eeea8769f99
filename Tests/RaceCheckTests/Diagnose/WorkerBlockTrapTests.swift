import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// A trap in a block on a dispatch worker is not pinned on a call that happened to be in flight.
  @Suite struct WorkerBlockTrapTests {
    @Test func syncOntoItsOwnQueueInABarrierBlockNamesTheBlock() {
      var report: CheckReport?
      withKnownIssue {
        report = check(BarrierReentrantArray.spec, configuration: smallConfiguration())
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("sync-on-current-queue")
      }
      let failure = report?.failure
      let evidence = failure?.diagnosis.evidence ?? ""
      #expect(
        failure?.diagnosis.pattern == .syncOnCurrentQueue, "\(report.map(\.description) ?? "")")
      #expect(failure?.crash?.runnerThread == nil, "\(report.map(\.description) ?? "")")
      #expect(
        evidence.contains("in a block (closure #1 in BarrierReentrantArray.removeAll()) on thread"),
        "\(evidence)")
      #expect(
        evidence.contains("submitted by removeAll: made alone on one thread, it traps"),
        "\(evidence)")
      #expect(!evidence.contains("in isEmpty"), "\(evidence)")
      #expect(!evidence.contains("in append("), "\(evidence)")
    }
  }
}
