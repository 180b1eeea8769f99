import Foundation
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

#if canImport(FoundationXML)
  import FoundationXML
#endif

// `--junit FILE` as CI systems read it: each document is parsed with an XML parser and held
// to the JUnit schema that Jenkins, GitLab and GitHub's reporters share (see `JUnitSchema`).

extension RaceCheckTestSuite {
  @Suite struct JUnitReportTests {
    @Test func demoWritesEveryRowAsATestCaseOfAValidDocument() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let path = directory.path + "/demo.xml"
      let driver = CLI.driver(
        targets: CLI.targets.map { target in
          var target = target
          // The stuck counter is expected to pass here, so that one row disagrees.
          target.scheduleExpectation = target.name == "StuckCounter" ? .pass : target.expectation
          return target
        })
      let result = CLI.invoke(
        [
          "demo", "--mode", "schedule", "--seeds", "1,2", "--scenarios", "3",
          "--repro-dir", directory.path, "--junit", path,
        ], driver: driver)
      #expect(result.status == 1)
      let document = try JUnitSchema.validate(contentsOf: path)
      #expect(document.cases.count == 6)
      #expect(document.failures == 2)
      #expect(document.errors == 0)
      let failed = document.cases.filter { $0.failure != nil }.map(\.name)
      #expect(
        failed == [
          "StuckCounter (seed 0x0000000000000001)", "StuckCounter (seed 0x0000000000000002)",
        ])
      #expect(
        document.cases.first { $0.failure != nil }?.failure?.message
          == "expected pass, found fail: unclassified")
      #expect(Set(document.cases.map(\.className)) == ["racecheck.demo"])
    }

    @Test func runWritesAFailureAPassOrAnError() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let common = [
        "--mode", "schedule", "--seed", "5", "--scenarios", "4", "--no-isolation",
        "--repro-dir", directory.path,
      ]
      func junit(_ target: String) throws -> JUnitSchema.Document {
        let path = directory.path + "/\(target).xml"
        _ = CLI.invoke(["run", target, "--junit", path] + common)
        return try JUnitSchema.validate(contentsOf: path)
      }
      let racy = try junit("RacyCounter")
      #expect(racy.failures == 1)
      #expect(racy.cases.first?.failure?.message == "non-linearizable: non-atomic-compound-update")
      #expect(racy.cases.first?.failure?.text.contains("Replay: racecheck run RacyCounter") == true)
      let locked = try junit("LockedCounter")
      #expect(locked.failures == 0 && locked.errors == 0 && locked.cases.count == 1)
      let throwing = try junit("ThrowingCounter")
      #expect(throwing.errors == 1)
      #expect(throwing.cases.first?.error?.type == "spec-error")
    }

    @Test func checkWritesTheHistorysVerdict() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let history = directory.path + "/racy.json"
      _ = CLI.invoke([
        "run", "RacyCounter", "--mode", "schedule", "--seed", "5", "--no-isolation",
        "--repro-dir", directory.path, "--history", history,
      ])
      let path = directory.path + "/check.xml"
      let result = CLI.invoke(["check", history, "--junit", path])
      #expect(result.status == 1)
      let document = try JUnitSchema.validate(contentsOf: path)
      #expect(document.cases.map(\.name) == [history])
      #expect(document.cases.first?.failure?.type == "not-linearizable")
    }

    @Test func hostileTextStaysInsideItsElement() throws {
      let report = JUnitReport(
        name: "suite <&>",
        cases: [
          JUnitReport.TestCase(
            name: "a \"quoted\" 'case' <tag> & more\u{1}", className: "x", time: .zero,
            outcome: .failed(
              message: "</failure><testcase name=\"injected\">", type: "t",
              details: "]]> <!-- \u{0}"),
            output: nil)
        ], timestamp: Date(timeIntervalSince1970: 0))
      let document = try JUnitSchema.validate(Data(report.xml.utf8))
      #expect(document.cases.count == 1)
      #expect(document.cases.first?.name == "a \"quoted\" 'case' <tag> & more\u{FFFD}")
      #expect(document.cases.first?.failure?.message == "</failure><testcase name=\"injected\">")
    }

    @Test(arguments: [
      #"<testsuites><testsuite name="s" tests="2"><testcase name="a"/></testsuite></testsuites>"#,
      #"<testsuites><testsuite name="s" tests="1"><testcase classname="c"/></testsuite></testsuites>"#,
      #"<testsuites><testsuite name="s" tests="1"><testcase name="a"><oops/></testcase></testsuite></testsuites>"#,
      #"<testsuites><testcase name="a"/></testsuites>"#,
      #"<testsuites><testsuite name="s" tests="1"><testcase name="a" time="1s"/></testsuite></testsuites>"#,
      #"<testsuites><testsuite name="s" tests="1"><testcase name="a"><failure/><error/></testcase></testsuite></testsuites>"#,
      #"<testsuites><testsuite name="s" tests="1"><testcase name="a"></testsuite></testsuites>"#,
    ])
    func theSchemaCheckRejectsABrokenDocument(xml: String) {
      #expect(throws: JUnitSchema.Problem.self) { try JUnitSchema.validate(Data(xml.utf8)) }
    }

    @Test func aFileThatCannotBeWrittenIsAnErrorAndTheReportStillPrints() {
      let path = "/nonexistent-racecheck-folder/report.xml"
      let passing = CLI.invoke([
        "run", "LockedCounter", "--mode", "schedule", "--scenarios", "2", "--no-isolation",
        "--junit", path,
      ])
      #expect(passing.status == 73)
      #expect(passing.output.contains("racecheck: LockedCounter passed"))
      #expect(passing.errors.contains("racecheck: \(path): cannot write the JUnit report"))
      let failing = CLI.invoke([
        "run", "RacyCounter", "--mode", "schedule", "--seed", "5", "--no-isolation",
        "--no-minimize", "--junit", path,
      ])
      #expect(failing.status == 1)
      #expect(failing.errors.contains("cannot write the JUnit report"))
    }
  }
}

/// The JUnit XML schema CI systems read (Jenkins' `junit-10.xsd`, which GitLab and GitHub's reporters follow), as checks on a parsed document.
enum JUnitSchema {
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  /// A `failure` or `error` element.
  struct Finding {
    var message: String?
    var type: String?
    var text: String
  }

  struct TestCase {
    var name: String
    var className: String
    var failure: Finding?
    var error: Finding?
  }

  struct Document {
    var cases: [TestCase]
    var failures: Int
    var errors: Int
  }

  static func validate(contentsOf path: String) throws -> Document {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Problem(description: "\(path) was not written")
    }
    return try validate(data)
  }

  /// Parses `data` and checks it against the schema: the elements, where they may appear, their attributes, and the counts.
  static func validate(_ data: Data) throws -> Document {
    let reader = Reader()
    let parser = XMLParser(data: data)
    parser.delegate = reader
    guard parser.parse() else {
      throw Problem(
        description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
    }
    if let problem = reader.problems.first { throw Problem(description: problem) }
    guard reader.sawRoot else { throw Problem(description: "no <testsuites> root") }
    let failures = reader.cases.filter { $0.failure != nil }.count
    let errors = reader.cases.filter { $0.error != nil }.count
    for counts in reader.suiteCounts {
      guard counts.tests == reader.cases.count, counts.failures == failures, counts.errors == errors
      else {
        throw Problem(
          description: "counts \(counts) disagree with \(reader.cases.count) cases, "
            + "\(failures) failures, \(errors) errors")
      }
    }
    return Document(cases: reader.cases, failures: failures, errors: errors)
  }

  /// Reads the elements in order, recording what breaks the schema.
  private final class Reader: NSObject, XMLParserDelegate {
    var problems: [String] = []
    var cases: [TestCase] = []
    var suiteCounts: [(tests: Int, failures: Int, errors: Int)] = []
    var sawRoot = false
    private var path: [String] = []
    private var text = ""
    private var finding: (element: String, message: String?, type: String?)?

    /// Where each element may appear, and the attributes it may and must have.
    private static let rules:
      [String: (parents: Set<String>, allowed: Set<String>, required: Set<String>)] = [
        "testsuites": ([""], ["name", "time", "tests", "failures", "disabled", "errors"], []),
        "testsuite": (
          ["", "testsuites"],
          [
            "name", "tests", "failures", "errors", "time", "disabled", "skipped", "timestamp",
            "hostname", "id", "package", "file", "log", "url", "version",
          ], ["name", "tests"]
        ),
        "properties": (["testsuite"], [], []),
        "property": (["properties"], ["name", "value"], ["name", "value"]),
        "testcase": (
          ["testsuite"], ["name", "assertions", "time", "classname", "status", "file", "line"],
          ["name"]
        ),
        "skipped": (["testcase"], ["message"], []),
        "failure": (["testcase"], ["message", "type"], []),
        "error": (["testcase"], ["message", "type"], []),
        "system-out": (["testcase", "testsuite"], [], []),
        "system-err": (["testcase", "testsuite"], [], []),
      ]

    func parser(
      _ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      let parent = path.last ?? ""
      if parent.isEmpty { sawRoot = element == "testsuites" || element == "testsuite" }
      path.append(element)
      text = ""
      guard let rule = Self.rules[element] else {
        problems.append("unknown element <\(element)>")
        return
      }
      if !rule.parents.contains(parent) { problems.append("<\(element)> inside <\(parent)>") }
      for name in attributes.keys where !rule.allowed.contains(name) {
        problems.append("<\(element)> has no attribute \(name)")
      }
      for name in rule.required where attributes[name] == nil {
        problems.append("<\(element)> lacks \(name)")
      }
      for name in ["time"] where attributes[name] != nil {
        if attributes[name]!.range(of: #"^[0-9]+(\.[0-9]{1,3})?$"#, options: .regularExpression)
          == nil
        {
          problems.append("<\(element)> time '\(attributes[name]!)' is no number of seconds")
        }
      }
      if let timestamp = attributes["timestamp"],
        timestamp.range(
          of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"#, options: .regularExpression) == nil
      {
        problems.append("timestamp '\(timestamp)' is not ISO 8601 without a zone")
      }
      switch element {
      case "testsuite":
        let count = { (name: String) in Int(attributes[name] ?? "0") }
        guard let tests = count("tests"), let failures = count("failures"),
          let errors = count("errors")
        else {
          problems.append("<testsuite> counts are not integers")
          return
        }
        suiteCounts.append((tests, failures, errors))
      case "testcase":
        cases.append(
          TestCase(
            name: attributes["name"] ?? "", className: attributes["classname"] ?? "",
            failure: nil, error: nil))
      case "failure", "error":
        if cases.last.map({ $0.failure != nil || $0.error != nil }) == true {
          problems.append("a <testcase> with more than one failure or error")
        }
        finding = (element, attributes["message"], attributes["type"])
      default:
        break
      }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
      problems.append("not well-formed XML: \(error)")
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      text += string
    }

    func parser(
      _ parser: XMLParser, didEndElement element: String, namespaceURI: String?,
      qualifiedName: String?
    ) {
      // Foundation's parser recovers from a mismatched end tag; the schema does not.
      if path.last != element { problems.append("</\(element)> closes <\(path.last ?? "")>") }
      path.removeLast()
      if let found = finding, found.element == element, !cases.isEmpty {
        let value = Finding(message: found.message, type: found.type, text: text)
        if element == "failure" { cases[cases.count - 1].failure = value }
        if element == "error" { cases[cases.count - 1].error = value }
        finding = nil
      }
    }
  }
}
