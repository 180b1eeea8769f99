import Foundation
import RaceCheckEngine

/// Verdicts as JUnit XML, the report format CI systems read: one suite of test cases.
///
/// The document follows the schema Jenkins, GitLab and GitHub's test reporters read
/// (`testsuites` › `testsuite` › `testcase`, each case with at most one `failure` or
/// `error`): a found bug is a failure, and a verdict racecheck could not reach (a search
/// cut short, a broken spec, an interrupt) is an error, never a pass.
struct JUnitReport {
  /// One verdict: a check, a demo row or a history file.
  struct TestCase {
    /// How a case ended.
    enum Outcome {
      /// The check reached the verdict it wanted.
      case passed
      /// The check found a failure: `message` in one line, `details` the full report.
      case failed(message: String, type: String, details: String)
      /// No verdict was reached: the search was cut short, the spec broke, or the run was stopped.
      case error(message: String, type: String, details: String)
    }

    /// The case's name, such as `LockArray (seed 0x0000000000000001)`.
    var name: String
    /// The group CI systems list the case under, such as `racecheck.demo`.
    var className: String
    /// How long the case took.
    var time: Duration
    var outcome: Outcome
    /// What the case printed, kept in `system-out`.
    var output: String?
  }

  /// The suite's name, such as `racecheck demo`.
  var name: String
  var cases: [TestCase]
  /// When the suite ran.
  var timestamp: Date

  /// The XML document.
  var xml: String {
    let failures = cases.filter { if case .failed = $0.outcome { true } else { false } }.count
    let errors = cases.filter { if case .error = $0.outcome { true } else { false } }.count
    let time = cases.reduce(Duration.zero) { $0 + $1.time }
    let counts =
      "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" "
      + "time=\"\(Self.format(time))\""
    var lines = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
      "<testsuites name=\"\(Self.escape(name))\" \(counts)>",
      "  <testsuite name=\"\(Self.escape(name))\" \(counts) skipped=\"0\" "
        + "timestamp=\"\(Self.timestampFormat.string(from: timestamp))\">",
    ]
    for testCase in cases {
      lines.append(
        "    <testcase name=\"\(Self.escape(testCase.name))\" "
          + "classname=\"\(Self.escape(testCase.className))\" time=\"\(Self.format(testCase.time))\">"
      )
      switch testCase.outcome {
      case .passed:
        break
      case .failed(let message, let type, let details):
        lines.append(element("failure", message: message, type: type, details: details))
      case .error(let message, let type, let details):
        lines.append(element("error", message: message, type: type, details: details))
      }
      if let output = testCase.output {
        lines.append("      <system-out>\(Self.escape(output))</system-out>")
      }
      lines.append("    </testcase>")
    }
    lines += ["  </testsuite>", "</testsuites>"]
    return lines.joined(separator: "\n") + "\n"
  }

  private func element(_ name: String, message: String, type: String, details: String) -> String {
    "      <\(name) message=\"\(Self.escape(message))\" type=\"\(Self.escape(type))\">"
      + "\(Self.escape(details))</\(name)>"
  }

  /// `time` in seconds with millisecond precision, as JUnit's `time` attributes take them.
  static func format(_ time: Duration) -> String {
    String(format: "%.3f", max(0, time.seconds))
  }

  /// `text` as XML character data or an attribute value: markup escaped as in HTML, and the
  /// control characters XML 1.0 cannot hold at all, even escaped, replaced, so that any
  /// report yields a valid document.
  static func escape(_ text: String) -> String {
    var allowed = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let representable =
        scalar.value >= 0x20
        ? !(0xFFFE...0xFFFF).contains(scalar.value) : "\t\n\r".unicodeScalars.contains(scalar)
      allowed.append(representable ? scalar : "\u{FFFD}")
    }
    return HTMLText.escaped(String(allowed))
  }

  /// ISO 8601 without a zone, as the schema's `timestamp` wants it, in UTC.
  private static var timestampFormat: DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    return formatter
  }
}
