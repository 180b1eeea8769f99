import RaceCheck
import Testing

extension RaceCheckTestSuite {
  /// A read trap on an empty array is named an unsigned underflow only when a read past the end of a longer array returns nil.
  @Suite struct IndexGuardProbeTests {
    @Test func readThatChecksNoIndexIsNotNamedAnUnsignedUnderflow() {
      var report: CheckReport?
      withKnownIssue {
        report = check(UncheckedReadArray.spec, configuration: smallConfiguration())
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("Index out of range")
      }
      let failure = report?.failure
      #expect(failure?.kind == .crash, "\(report.map(\.description) ?? "no report")")
      #expect(failure?.diagnosis.pattern == .unclassified, "\(report.map(\.description) ?? "")")
      #expect(
        failure?.diagnosis.evidence.contains("traps too, where the model returns nil") == true,
        "\(report.map(\.description) ?? "")")
    }
  }
}
