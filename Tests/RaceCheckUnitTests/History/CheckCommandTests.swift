import Foundation
import RaceCheck
import Testing

// `racecheck check` end to end: exit statuses, the JSON document, Jepsen imports and
// their errors, and a time budget that runs out.

extension UnitTestSuite {
  @Suite struct CheckCommandTests {
    @Test func linearizableHistoryExitsZero() throws {
      let result = try CheckCLI.check(contents: registerHistory(read: 1))
      #expect(result.status == 0)
      #expect(
        result.output.first?.contains(
          ": linearizable under the register model; 2 operations (2 searched), ") == true)
    }

    @Test func violationExitsOneWithItsExplanation() throws {
      let result = try CheckCLI.check(contents: registerHistory(read: 2))
      #expect(result.status == 1)
      #expect(
        result.output.contains(
          "  - operations[1] (line 3) process 1: read → 2: the model returns 1"))
    }

    @Test func jsonDocumentHasTheVerdict() throws {
      let result = try CheckCLI.check(contents: registerHistory(read: 2), arguments: ["--json"])
      #expect(result.status == 1)
      let document =
        try JSONSerialization.jsonObject(with: Data(result.output.joined().utf8)) as? [String: Any]
      #expect(document?["verdict"] as? String == "not-linearizable")
      let violation = document?["violation"] as? [String: Any]
      #expect(violation?["longestPrefix"] as? [Int] == [0])
    }

    @Test func exhaustedTimeoutExitsWithUnknown() throws {
      // Twelve overlapping enqueues and a count no order explains: every order is its own
      // queue state, so the search has 12! of them to try.
      var operations = (0..<12).map {
        #"{"process": \#($0), "op": "enqueue", "args": [\#($0)], "call": 0, "return": 100}"#
      }
      operations.append(
        #"{"process": 99, "op": "count", "args": [], "call": 101, "return": 102, "result": 13}"#)
      let contents =
        #"{"racecheck": 1, "model": "queue", "operations": [\#(operations.joined(separator: ","))]}"#
      let result = try CheckCLI.check(contents: contents, arguments: ["--timeout", "0.2"])
      #expect(result.status == 75)
      #expect(result.output.first?.contains("unknown: the time ran out") == true)
    }

    @Test func jepsenEDNHistoryIsImported() throws {
      let lines = [
        #"{:process 0, :type :invoke, :f :put, :key "a", :value "x"}"#,
        #"{:process :nemesis, :type :info, :f :start, :value nil}"#,
        #"{:process 1, :type :invoke, :f :get, :key "a", :value nil}"#,
        #"{:process 0, :type :ok, :f :put, :key "a", :value "x"}"#,
        #"{:process 1, :type :ok, :f :get, :key "a", :value "x"}"#,
        #"{:process 2, :type :invoke, :f :append, :key "a", :value "y"}"#,
        #"{:process 2, :type :info, :f :append, :key "a", :value "y"}"#,
      ]
      let history = try RecordedHistory(
        bytes: Array(lines.joined(separator: "\n").utf8), format: .jepsen)
      #expect(history.model == "kv")
      #expect(history.operations.map(\.name) == ["put", "get", "append"])
      #expect(history.operations[1].result == "x")
      #expect(history.operations[2].status == .info)
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test func knossosVectorOverManyLinesWithCommentsIsImported() throws {
      let file = """
        ; A Knossos test history: one vector of op maps.
        [{:process 4, :type :invoke, :f :write, :value 2}
         {:process 4, :type :ok, :f :write, :value 2} ; the write took effect
         {:process 6, :type :invoke, :f :read, :value nil} {:process :nemesis, :type :info, :f :start}
         {:process 6, :type :ok,
          :f :read, :value 2}
         {:process 5, :type :invoke, :f :cas, :value [2 3]}
         {:process 5, :type :fail, :f :cas, :value [2 3]}]
        ; trailing comment
        """
      let history = try RecordedHistory(
        bytes: Array(file.utf8), format: .jepsen, model: "cas-register")
      #expect(history.operations.map(\.name) == ["write", "read", "cas"])
      // Each operation cites the line its invocation starts on.
      #expect(history.operations.map(\.call) == [2, 4, 7])
      #expect(history.operations[1].result == 2)
      // A :fail is known not to have taken effect, so the failed cas constrains nothing.
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test func knossosListLayoutAndReadsInvokedWithAValueAreImported() throws {
      let file = """
        ({:type :invoke, :f :write, :value 0, :process 0}
         {:type :ok, :f :write, :value 0, :process 0}
         ; a read invoked with a value: only its completion's value counts
         {:type :invoke, :f :read, :value 4, :process 1}
         {:type :ok, :f :read, :value 3, :process 1})
        """
      let history = try RecordedHistory(
        bytes: Array(file.utf8), format: .jepsen, model: "cas-register")
      #expect(history.operations.map(\.arguments) == [[0], []])
      #expect(history.operations[1].result == 3)
      #expect(try HistoryChecker().check(history).verdict == .notLinearizable)
    }

    @Test func aHistoryOfTheNemesisAloneIsEmptyAndLinearizable() throws {
      let file =
        "[{:process :nemesis, :type :info, :f :kill, :value nil}\n {:process :nemesis, :type :info, :f :start}]"
      let history = try RecordedHistory(
        bytes: Array(file.utf8), format: .jepsen, model: "cas-register")
      #expect(history.operations.isEmpty)
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test(arguments: [
      (
        "; comment\n[{:process 0, :type :invoke, :f :read, :value nil}\n {:process 0, :type :ok",
        "line 3, column 24: not valid EDN: expected '}', found the end of the line"
      ),
      (
        "[{:process 0, :type :invoke, :f :read, :value nil}\n {:process 0, :type :ok, :f :read, :value 0}",
        "line 2, column 45: not valid EDN: expected ']', found the end of the file"
      ),
      (
        "[{:process 0, :type :invoke, :f :read, :value nil}\n 7]",
        "line 2: an op must be an EDN map, got 7"
      ),
      (
        "[{:process 0, :type :invoke, :f :read, :value nil}\n {:process 0, :type :ok, :f :read, :value 0}]\n[]",
        "line 3, column 1: not valid EDN: more forms after the history's vector"
      ),
    ])
    func malformedKnossosVectorIsRejectedWhereItBreaks(contents: String, message: String) throws {
      let result = try CheckCLI.check(
        contents: contents, arguments: ["--format", "jepsen", "--model", "cas-register"])
      #expect(result.status == 65)
      #expect(result.errors == ["racecheck: \(result.path): \(message)"])
    }

    @Test func jepsenLogWithTabsAndSpacesIsImported() throws {
      let lines = [
        "INFO  jepsen.util - 0\t:invoke\t:write\t1",
        "INFO  jepsen.util - 0\t:ok\t:write\t1",
        "INFO  jepsen.util - 1   :invoke :cas    [2 4]",
        "INFO  jepsen.util - 1   :fail   :cas    [2 4]",
        "INFO  jepsen.util - 2   :invoke :read   nil",
        "INFO  jepsen.util - 2   :fail   :read   :timed-out",
        "some other log line",
      ]
      let history = try RecordedHistory(
        bytes: Array(lines.joined(separator: "\n").utf8), format: .jepsenLog)
      #expect(history.model == "cas-register")
      #expect(history.operations[1].result == false && history.operations[1].status == .ok)
      #expect(history.operations[2].status == .info)
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test(arguments: [
      (
        "{:process 0, :type :invoke, :f :get, :key \"a\"",
        "line 1, column 46: not valid EDN: expected '}', found the end of the line"
      ),
      (
        "{:process 0, :type :ok, :f :get, :key \"a\", :value \"\"}",
        "line 1: process 0 completes an operation it did not invoke"
      ),
      (
        "{:process 0, :type :invoke, :f :get, :key \"a\", :value nil}\n{:process 0, :type :invoke, :f :get, :key \"a\", :value nil}",
        "line 2: process 0 invokes while its operation of line 1 is still running"
      ),
      (
        "{:process 0, :type :invoke, :f :gett, :key \"a\", :value nil}",
        "line 1: :gett does not fit the kv model: the kv model has no operation 'gett'"
      ),
      ("", "the file holds no EDN operations"),
    ])
    func malformedJepsenHistoryIsRejected(contents: String, message: String) throws {
      let result = try CheckCLI.check(contents: contents, arguments: ["--format", "jepsen"])
      #expect(result.status == 65)
      #expect(result.errors == ["racecheck: \(result.path): \(message)"])
    }
  }
}

private func registerHistory(read value: Int) -> String {
  #"""
  {"racecheck": 1, "model": "register", "operations": [
    {"process": 0, "op": "write", "args": [1], "call": 0, "return": 1},
    {"process": 1, "op": "read", "args": [], "call": 2, "return": 3, "result": \#(value)}
  ]}
  """#
}
