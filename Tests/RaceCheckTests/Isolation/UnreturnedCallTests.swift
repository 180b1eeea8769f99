import Foundation
import RaceCheck
import RaceCheckTestSupport
import Testing

extension RaceCheckTestSuite {
  /// An `async` call that never returns is the code's hang in every mode, decided by the operation's own timeout when it is the shorter, and never a broken spec.
  @Suite struct UnreturnedCallTests {
    @Test func inThisProcessItIsAHangNamingTheCall() throws {
      var configuration = Self.configuration
      configuration.isolated = false
      let report = Latch.spec(timeout: .milliseconds(200)).check(configuration)
      #expect(report.specError == nil, "\(report)")
      let failure = try #require(report.failure, "\(report)")
      #expect(failure.kind == .hang)
      #expect(failure.crash?.inFlight.map(\.call.operation) == ["wait"], "\(report)")
      #expect(failure.crash?.detail == "wait did not return within 0.2 s", "\(report)")
      #expect(report.description.contains("hung: wait did not return within 0.2 s"), "\(report)")
    }

    @Test func inAnIsolatedChildItsOwnTimeoutDecidesWhenItIsTheShorter() throws {
      var configuration = Self.configuration
      // The hang timeout is the longer: the operation's own timeout decides.
      configuration.hangTimeout = .seconds(30)
      var report: CheckReport?
      withKnownIssue {
        report = check(Latch.spec(timeout: .milliseconds(500)), configuration: configuration)
      }
      let failure = try #require(report?.failure, "\(String(describing: report))")
      #expect(failure.kind == .hang)
      let detail = failure.crash?.detail ?? ""
      #expect(
        detail.hasPrefix("wait did not return within 0.5 s, its operation's timeout"),
        "\(detail)")
      #expect(failure.crash?.threadStacks.isEmpty == false)
    }

    @Test func underTheSchedulerItIsADeadlockThatNamesTheCallNotRacechecksWait() throws {
      var configuration = Self.configuration
      configuration.mode = .schedule(strategy: .random, schedules: 20)
      var report: CheckReport?
      withKnownIssue {
        report = check(Latch.spec(timeout: .seconds(30)), configuration: configuration)
      }
      let failure = try #require(report?.failure, "\(String(describing: report))")
      let evidence = failure.diagnosis.evidence
      #expect(evidence.contains("waits for wait to return"), "\(evidence)")
      #expect(!evidence.contains("semaphore"), "\(evidence)")
    }

    private static var configuration: Configuration {
      var configuration = smallConfiguration()
      configuration.scenarios = 1
      configuration.minimizes = false
      configuration.shape = Configuration.Shape(
        threads: 2, operationsPerThread: 1, initialOperations: 0, postOperations: 0)
      return configuration
    }
  }
}

/// A latch that nobody opens: waiting on it never returns.
private final class Latch: Sendable {
  func wait() async {
    await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
  }

  static func spec(timeout: Duration) -> Spec<Latch, Int> {
    Spec("Latch", make: Latch.init, model: 0) {
      Operation(
        "wait", timeout: timeout, perform: { (latch: Latch) in await latch.wait() },
        model: { (_: inout Int) in })
    }
  }
}
