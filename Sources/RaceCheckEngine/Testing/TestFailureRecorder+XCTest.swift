// The library links XCTest, as it links Swift Testing, so that a check in an XCTest method
// fails it through XCTest's public `XCTFail`. The `racecheck` executable therefore links
// libXCTest.so too, a decision made because on Linux that costs nothing: the library ships in
// the toolchain's runtime folder beside libTesting.so, which the executable already needs for
// `Issue.record`; it needs only libraries the executable already loads (Foundation, Dispatch,
// the Swift runtime); and loading it starts no test and installs no observer or handler.
// Keeping XCTest out of the executable would take a module of the test glue alone, which the
// executable would not link. A toolchain without XCTest builds the library without this file.
#if canImport(XCTest)
  import Synchronization
  import XCTest

  extension TestFailureRecorder {
    /// Fails the running XCTest case with `message` at `filePath`:`line`; returns false when no XCTest case took it.
    ///
    /// `XCTFail` outside a running XCTest case does nothing and says nothing; inside one,
    /// XCTest tells its observers of the failure before `XCTFail` returns.
    static func recordInXCTest(_ message: String, filePath: StaticString, line: UInt) -> Bool {
      XCTestFailureListener.registered.hears(message, atLine: Int(line)) {
        XCTFail(message, file: filePath, line: line)
      }
    }
  }

  /// An XCTest observer that tells whether a failure reached a running XCTest case.
  ///
  /// It registers itself with `XCTestObservationCenter` on the first failure racecheck
  /// records outside Swift Testing, and stays registered. Registered that late, it never
  /// sees the start of the test case already running, so it listens for the failure itself
  /// rather than tracking the current test case. XCTest's observer list has no lock: the
  /// one registration races only an XCTest failure recorded on another thread at that moment.
  private final class XCTestFailureListener: XCTestObservation, Sendable {
    /// The listener, registered with XCTest when first used.
    static let registered: XCTestFailureListener = {
      let listener = XCTestFailureListener()
      XCTestObservationCenter.shared.addTestObserver(listener)
      return listener
    }()

    /// A failure racecheck is recording, and whether XCTest reported it.
    private struct Awaited {
      let message: String
      let line: Int
      var heard = false
    }

    /// The failures being recorded now, by a number of their own.
    private let awaited = Mutex<(next: Int, failures: [Int: Awaited])>((0, [:]))

    /// Runs `recording`, and returns whether XCTest reported a failure of `message` at `line` meanwhile.
    func hears(_ message: String, atLine line: Int, during recording: () -> Void) -> Bool {
      let number = awaited.withLock { awaited in
        awaited.next += 1
        awaited.failures[awaited.next] = Awaited(message: message, line: line)
        return awaited.next
      }
      recording()
      return awaited.withLock { $0.failures.removeValue(forKey: number)?.heard == true }
    }

    func testCase(
      _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
      atLine lineNumber: Int
    ) {
      // XCTest describes an `XCTFail` as "failed - " followed by its message.
      awaited.withLock { awaited in
        for (number, failure) in awaited.failures
        where failure.line == lineNumber && description.hasSuffix(failure.message) {
          awaited.failures[number]?.heard = true
        }
      }
    }
  }
#else
  extension TestFailureRecorder {
    /// Without XCTest, no XCTest case can take a failure.
    static func recordInXCTest(_ message: String, filePath: StaticString, line: UInt) -> Bool {
      false
    }
  }
#endif
