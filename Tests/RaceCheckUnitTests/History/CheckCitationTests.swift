import Foundation
import Testing

@testable import RaceCheckEngine

// How `racecheck check` names operations: by their lines where the file has lines (a
// Jepsen operation by its invocation and completion lines, a history file's by its index
// and line), the JSON keeping indexes and adding lines; and a result of nil as `→ nil`,
// apart from an operation that returns nothing.

extension UnitTestSuite {
  @Suite struct CheckCitationTests {
    @Test func knossosViolationCitesLines() throws {
      let result = try CheckCLI.check(
        contents: nilReadAfterWrite, arguments: ["--format", "jepsen", "--model", "register"])
      #expect(result.status == 1)
      #expect(
        result.output.contains(
          "Smallest failing window: the 2 operations called from lines 2–3 to lines 4–5; "
            + "no order of them explains every result:"))
      #expect(result.output.contains("    lines 2–3 process 0: write(1)"))
      #expect(result.output.contains("  - lines 4–5 process 1: read → nil: the model returns 1"))
    }

    @Test func jepsenLinePerOpCitesTheInvocationOfAnOperationThatNeverCompleted() throws {
      let lines = [
        "{:process 0, :type :invoke, :f :write, :value 1}",
        "{:process 0, :type :ok, :f :write, :value 1}",
        "{:process 2, :type :invoke, :f :write, :value 3}",
        "{:process 1, :type :invoke, :f :read, :value nil}",
        "{:process 1, :type :ok, :f :read, :value 2}",
      ]
      let result = try CheckCLI.check(
        contents: lines.joined(separator: "\n"),
        arguments: ["--format", "jepsen", "--model", "register"])
      #expect(result.status == 1)
      #expect(result.output.contains("    line 3 process 2: write(3) → ? (unknown outcome)"))
      #expect(result.output.contains("  - lines 4–5 process 1: read → 2: the model returns 3"))
    }

    @Test func jepsenLogOperationsCarryTheirLines() throws {
      let log = """
        INFO  jepsen.util - 2	:invoke	:cas	[2 4]
        some other line
        INFO  jepsen.util - 3	:invoke	:read	nil
        INFO  jepsen.util - 2	:fail	:cas	[2 4]
        INFO  jepsen.util - 3	:ok	:read	2
        """
      let history = try RecordedHistory(bytes: Array(log.utf8), format: .jepsenLog)
      #expect(
        history.operations.map(\.source) == [
          .event(invocation: 1, completion: 4), .event(invocation: 3, completion: 5),
        ])
      #expect(history.citation(of: 0) == "lines 1–4")
    }

    @Test func jsonKeepsIndexesAndAddsLines() throws {
      let result = try CheckCLI.check(
        contents: nilReadAfterWrite,
        arguments: ["--format", "jepsen", "--model", "register", "--json"])
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(result.output.joined().utf8))
          as? [String: Any])
      let violation = try #require(document["violation"] as? [String: Any])
      #expect(violation["window"] as? [Int] == [0, 1])
      #expect(violation["windowLines"] as? [Int] == [2, 4])
      #expect(violation["longestPrefixLines"] as? [Int] == [2])
      let candidates = try #require(violation["candidates"] as? [[String: Any]])
      #expect(candidates.map { $0["operation"] as? Int } == [1])
      #expect(candidates.map { $0["line"] as? Int } == [4])
    }

    @Test func historyFileOperationsAreCitedByIndexAndLine() throws {
      let file = #"""
        {"racecheck": 1, "model": "array",
         "operations": [
          {"process": 0, "op": "append", "args": [5], "call": 0, "return": 1},

          {"process": 1,
           "op": "first", "args": [], "call": 2, "return": 3}
        ]}
        """#
      let history = try RecordedHistory(bytes: Array(file.utf8))
      #expect(history.operations.map(\.source) == [.element(line: 3), .element(line: 5)])
      #expect(history.citation(of: 1) == "operations[1] (line 5)")
      let result = try CheckCLI.check(contents: file)
      #expect(
        result.output.contains(
          "  - operations[1] (line 5) process 1: first → nil: the model returns 5"))
    }

    @Test func nilResultIsShownApartFromNothingReturned() {
      let history = RecordedHistory(
        model: "array",
        operations: [
          .init(process: 0, name: "append", arguments: [1], call: 0, return: 1),
          .init(process: 0, name: "get", arguments: [4], call: 2, return: 3, result: nil),
          .init(process: 0, name: "get", arguments: [0], call: 4, return: 5, result: 1),
          .init(process: 1, name: "first", arguments: [], call: 0, return: nil, status: .info),
        ])
      #expect(history.describe(0) == "process 0: append(1)")
      #expect(history.describe(1) == "process 0: get(4) → nil")
      #expect(history.describe(2) == "process 0: get(0) → 1")
      #expect(history.describe(3) == "process 1: first → ? (unknown outcome)")
      #expect(history.citation(of: 1) == "operations[1]")
    }
  }
}
