import Synchronization
import Testing

/// An expectation that failed while a schedule ran: a test framework's issue, or an error the body threw.
package struct ExpectationFailure: Hashable, Sendable, Codable, CustomStringConvertible {
  /// What failed, as the test framework describes it: `Expectation failed: (count → 1) == 2`.
  package var message: String
  /// Where, as `File.swift:12:5`, when the framework said.
  package var location: String?

  package var description: String {
    location.map { "\($0): \(message)" } ?? message
  }
}

/// Collects the expectations that fail on the controlled threads of one schedule, in Swift Testing and in XCTest.
///
/// Every controlled thread of the schedule runs inside ``capturing(_:)``. There, a Swift
/// Testing issue (`#expect`, `#require`, `Issue.record`) is caught as a known issue of a
/// `withKnownIssue` scope, which the thread binds for itself, so that it counts against the
/// schedule and not the test; an XCTest failure reaches the log through an observer (see
/// `ExpectationLog+XCTest.swift`). A failure on a thread the scheduler does not control
/// reaches neither.
package final class ExpectationLog: Sendable {
  private let failures = Mutex<[ExpectationFailure]>([])
  /// Told of each failure as it is recorded, on the thread that failed it.
  private let heard: @Sendable (ExpectationFailure) -> Void

  /// Creates a log that tells `heard` of each failure as it is recorded.
  package init(heard: @escaping @Sendable (ExpectationFailure) -> Void = { _ in }) {
    self.heard = heard
  }

  /// The failures recorded so far, in order.
  package var recorded: [ExpectationFailure] { failures.withLock { $0 } }

  /// Adds a failure.
  package func record(_ failure: ExpectationFailure) {
    failures.withLock { $0.append(failure) }
    heard(failure)
  }

  /// Runs `body`, one controlled thread's work, adding to the log every Swift Testing issue recorded inside it.
  package func capturing(_ body: () -> Void) {
    withKnownIssue(isIntermittent: true) {
      body()
    } matching: { [self] issue in
      record(ExpectationFailure(issue))
      return true
    }
  }
}

extension ExpectationFailure {
  /// A Swift Testing issue as a failure of the schedule.
  init(_ issue: Issue) {
    message = issue.description
    location = issue.sourceLocation.map { "\($0.fileName):\($0.line):\($0.column)" }
  }
}
