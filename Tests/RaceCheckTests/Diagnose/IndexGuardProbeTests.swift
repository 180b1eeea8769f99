import Foundation
import RaceCheckTestSupport
import Testing

@testable import RaceCheckEngine

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

    @Test func operationsWithTheirOwnModelClosuresMakeTheProbesAppend() {
      #expect(
        IndexGuardProbe.fillingCall(of: OwnModelAppendArray.spec())
          == Scenario.Call("append", [.int(1)]))
      #expect(
        IndexGuardProbe.fillingCall(of: OwnModelAppendArray.spec(withAppend: false))
          == Scenario.Call("appendContentsOf", [.list([.int(3)])]))
      // A spec whose operations leave the model's array empty offers none.
      #expect(IndexGuardProbe.fillingCall(of: UncheckedReadArray.spec.withoutAppend) == nil)
    }

    @Test func readTrapOfASpecWhoseAppendHasItsOwnModelIsProbed() {
      var report: CheckReport?
      withKnownIssue {
        report = check(OwnModelAppendArray.spec(), configuration: smallConfiguration())
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("Index out of range")
      }
      let evidence = report?.failure?.diagnosis.evidence ?? ""
      #expect(report?.failure?.kind == .crash, "\(report.map(\.description) ?? "no report")")
      #expect(
        evidence.contains("after append(1), past the end of an array of 1 element traps too"),
        "\(evidence)")
      #expect(!evidence.contains("makes the array non-empty"), "\(evidence)")
    }
  }
}

extension Spec {
  /// The spec without its `append`.
  fileprivate var withoutAppend: Spec {
    var spec = self
    spec.operations.removeAll { $0.name == "append" }
    return spec
  }
}
