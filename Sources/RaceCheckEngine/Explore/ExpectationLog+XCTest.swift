#if canImport(XCTest)
  import Synchronization
  import XCTest

  extension ExpectationLog {
    /// Runs `schedule`, adding to the log every XCTest failure recorded meanwhile, on any thread.
    ///
    /// XCTest records an `XCTAssert…` failure against the test case running, from whatever
    /// thread, and tells its observers; only one schedule runs at a time in a process.
    package func listening(during schedule: () -> Void) {
      let listener = XCTestExpectationListener.registered
      listener.logs.withLock { $0.append(self) }
      defer { listener.logs.withLock { $0.removeAll { $0 === self } } }
      schedule()
    }
  }

  /// An XCTest observer that hands the failures recorded while a schedule runs to its log.
  private final class XCTestExpectationListener: XCTestObservation, Sendable {
    /// The listener, registered with XCTest when first used.
    static let registered: XCTestExpectationListener = {
      let listener = XCTestExpectationListener()
      XCTestObservationCenter.shared.addTestObserver(listener)
      return listener
    }()

    /// The logs of the schedules running now.
    let logs = Mutex<[ExpectationLog]>([])

    func testCase(
      _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
      atLine lineNumber: Int
    ) {
      let file = filePath.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
      let failure = ExpectationFailure(
        message: description, location: file.map { "\($0):\(lineNumber)" })
      for log in logs.withLock({ $0 }) { log.record(failure) }
    }
  }
#else
  extension ExpectationLog {
    /// Runs `schedule`: without XCTest, only Swift Testing's issues are heard.
    package func listening(during schedule: () -> Void) { schedule() }
  }
#endif
