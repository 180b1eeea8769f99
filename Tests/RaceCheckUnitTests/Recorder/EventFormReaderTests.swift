import Foundation
import RaceCheck
import RaceCheckTestSupport
import Testing

// The event form of history-format.md as `racecheck check` meets it: a header line, then one
// call or end a line. A call without its end is `info`; the last line cut short by a crash is
// ignored; any other bad line rejects the file with its line, exit status 65.

extension UnitTestSuite {
  @Suite struct EventFormReaderTests {
    static let header = #"{"racecheck": 1, "form": "events", "model": "kv"}"#

    /// The lines after the header, each ended by a newline.
    static func file(_ lines: String...) -> String {
      file(lines)
    }

    static func file(_ lines: [String]) -> String {
      ([header] + lines).map { $0 + "\n" }.joined()
    }

    static func read(_ text: String) throws(HistoryInputError) -> RecordedHistory {
      try RecordedHistory(bytes: Array(text.utf8))
    }

    @Test func documentedExampleIsReadAndLinearizable() throws {
      let history = try Self.read(try documentedExample())
      #expect(history.model == "kv")
      #expect(history.meta == .object(["run": "staging"]))
      #expect(
        history.operations.map(\.name) == ["put", "get", "put", "append", "get", "put", "get"])
      #expect(history.operations.map(\.status) == [.ok, .ok, .info, .fail, .ok, .info, .ok])
      // The put whose call never ended (line 5) is cited by its call alone.
      #expect(history.operations[2].source == .event(invocation: 5, completion: nil))
      #expect(history.operations[5].source == .event(invocation: 11, completion: 12))
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test func openCallCountsAsUnknownNotAsFailed() throws {
      // The get sees "y", which only the put still running when the file stops can have stored.
      let text = Self.file(
        #"{"id": 0, "process": 0, "op": "put", "args": ["a", "y"], "call": 10}"#,
        #"{"id": 1, "process": 1, "op": "get", "args": ["a"], "call": 20}"#,
        #"{"id": 1, "return": 30, "result": "y"}"#)
      let history = try Self.read(text)
      #expect(history.operations[0].status == .info && history.operations[0].return == nil)
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
      var failed = history
      failed.operations[0].status = .fail
      failed.operations[0].return = 15
      #expect(try HistoryChecker().check(failed).verdict == .notLinearizable)
    }

    @Test func tornFinalLineIsIgnored() throws {
      let whole = Self.file(
        #"{"id": 0, "process": 0, "op": "put", "args": ["a", "x"], "call": 10}"#,
        #"{"id": 0, "return": 20}"#)
      let torn = whole + #"{"id": 1, "process": 0, "op": "get", "ar"#
      let history = try Self.read(torn)
      #expect(history.operations.count == 1 && history.operations[0].status == .ok)
    }

    @Test func finalLineWithoutNewlineIsReadWhenWhole() throws {
      let text =
        Self.file(#"{"id": 0, "process": 0, "op": "get", "args": ["a"], "call": 10}"#)
        + #"{"id": 0, "return": 20, "result": ""}"#
      let history = try Self.read(text)
      #expect(history.operations.count == 1 && history.operations[0].status == .ok)
    }

    @Test func tornLineElsewhereIsRejectedWithItsLine() throws {
      let text = Self.file(
        #"{"id": 0, "process": 0, "op": "put", "args": ["a", "x"], "call": 10}"#,
        #"{"id": 0, "ret"#,
        #"{"id": 1, "process": 0, "op": "get", "args": ["a"], "call": 30}"#)
      let result = try CheckCLI.check(contents: text)
      #expect(result.status == 65)
      #expect(
        result.errors == [
          "racecheck: \(result.path): not valid JSON at line 3, column 15: a string is not closed before the end of the line"
        ])
    }

    @Test func cutFinalLineEndedByANewlineIsRejected() throws {
      // A newline after it says the writer finished the line: its text is wrong, not torn.
      let text = Self.file(#"{"id": 0, "process": 0, "op": "get", "#)
      #expect(throws: HistoryInputError.self) { try Self.read(text) }
    }

    @Test(arguments: malformedEventFiles)
    func malformedEventFileIsRejectedWithItsLine(file: MalformedEventFile) throws {
      let result = try CheckCLI.check(contents: file.contents)
      #expect(result.status == 65)
      #expect(result.errors == ["racecheck: \(result.path): \(file.message)"])
    }

    @Test func modelRejectionCitesTheCallsLines() throws {
      let text = Self.file(
        #"{"id": 0, "process": 0, "op": "get", "args": ["a", "b"], "call": 10}"#,
        #"{"id": 0, "return": 20}"#)
      let result = try CheckCLI.check(contents: text)
      #expect(result.status == 65)
      #expect(
        result.errors == ["racecheck: \(result.path): lines 2–3: 'get' takes 1 argument, got 2"])
    }

    @Test func headerWithoutEventsIsAnEmptyHistory() throws {
      let history = try Self.read(Self.header + "\n")
      #expect(history.operations.isEmpty)
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test func documentOnOneLineIsStillADocument() throws {
      let text =
        #"{"racecheck": 1, "model": "kv", "operations": [{"process": 0, "op": "get", "args": ["a"], "call": 0, "return": 1, "result": ""}]}"#
      let history = try Self.read(text)
      #expect(history.operations.count == 1)
      #expect(history.operations[0].source == .element(line: 1))
    }

    @Test func eventsWrittenByTheEncoderReadBack() throws {
      let events = [
        HistoryEvent(
          id: 0,
          kind: .call(
            process: "alice", name: "put", arguments: ["a \"quoted\"\n", "\u{1}é"], time: -5)),
        HistoryEvent(id: 1, kind: .call(process: 1, name: "get", arguments: ["a"], time: 7)),
        HistoryEvent(id: 0, kind: .end(status: .ok, time: 8, result: .null)),
        HistoryEvent(id: 1, kind: .end(status: .ok, time: 9, result: "a \"quoted\"\n")),
      ]
      let writer = JSONLineWriter(capacity: 8)
      for event in events { event.appendLine(to: writer) }
      let bytes =
        HistoryEvent.headerLine(
          model: "kv", initial: .object(["a": "b"]),
          meta: .object(["n": .double(1.5), "l": [nil, true]]))
        + writer.bytes
      let history = try RecordedHistory(bytes: bytes)
      #expect(history.initial == .object(["a": "b"]))
      #expect(history.meta == .object(["n": .double(1.5), "l": [nil, true]]))
      #expect(history.operations[0].arguments == ["a \"quoted\"\n", "\u{1}é"])
      #expect(history.operations[0].process == "alice" && history.operations[0].call == -5)
      #expect(history.operations[1].result == "a \"quoted\"\n")
      #expect(history.operations[1].source == .event(invocation: 3, completion: 5))
    }
  }
}

/// An event form file that must be rejected, and the message `racecheck check` prints for it.
struct MalformedEventFile: CustomTestStringConvertible, Sendable {
  var name: String
  var contents: String
  var message: String
  var testDescription: String { name }
}

let malformedEventFiles: [MalformedEventFile] = {
  func file(_ lines: String...) -> String { UnitTestSuite.EventFormReaderTests.file(lines) }
  let call = #"{"id": 0, "process": 0, "op": "put", "args": ["a", "x"], "call": 10}"#
  return [
    MalformedEventFile(
      name: "end without call", contents: file(#"{"id": 3, "return": 20}"#),
      message: "line 2: id 3 ends, but no line before calls it"),
    MalformedEventFile(
      name: "duplicate id",
      contents: file(
        call, #"{"id": 0, "return": 20}"#,
        #"{"id": 0, "process": 1, "op": "get", "args": ["a"], "call": 30}"#),
      message: "line 4: id 0 is already the id of the call of line 2"),
    MalformedEventFile(
      name: "ended twice",
      contents: file(call, #"{"id": 0, "return": 20}"#, #"{"id": 0, "return": 21}"#),
      message: "line 4: id 0 ends again; it ended on line 3"),
    MalformedEventFile(
      name: "call while running",
      contents: file(call, #"{"id": 1, "process": 0, "op": "get", "args": ["a"], "call": 30}"#),
      message: "line 3: process 0 calls while its call of line 2 (id 0) has not ended"),
    MalformedEventFile(
      name: "call after info",
      contents: file(
        call, #"{"id": 0, "status": "info"}"#,
        #"{"id": 1, "process": 0, "op": "get", "args": ["a"], "call": 30}"#),
      message:
        "line 4: process 0 calls after its call that ended \"info\" on line 3, so it calls nothing more"
    ),
    MalformedEventFile(
      name: "call not after the previous return",
      contents: file(
        call, #"{"id": 0, "return": 20}"#,
        #"{"id": 1, "process": 0, "op": "get", "args": ["a"], "call": 20}"#),
      message: "line 4: process 0 calls at 20, not after its previous call returned at 20 (line 3)"),
    MalformedEventFile(
      name: "return before call", contents: file(call, #"{"id": 0, "return": 5}"#),
      message: "line 3: 'return' (5) is before the 'call' (10) of line 2"),
    MalformedEventFile(
      name: "info with a return",
      contents: file(call, #"{"id": 0, "return": 15, "status": "info"}"#),
      message: "line 3: an end has a 'return' unless its 'status' is \"info\", and then it has none"
    ),
    MalformedEventFile(
      name: "ok end without return", contents: file(call, #"{"id": 0}"#),
      message: "line 3: 'return' is missing"),
    MalformedEventFile(
      name: "id missing", contents: file(#"{"process": 0, "op": "get", "args": [], "call": 1}"#),
      message: "line 2: 'id' is missing"),
    MalformedEventFile(
      name: "process of the wrong type",
      contents: file(#"{"id": 0, "process": [0], "op": "get", "args": [], "call": 1}"#),
      message: "line 2: 'process' must be an integer or a string, got [0]"),
    MalformedEventFile(
      name: "unknown status", contents: file(call, #"{"id": 0, "return": 15, "status": "done"}"#),
      message: "line 3: 'status' must be \"ok\", \"fail\" or \"info\", got \"done\""),
    MalformedEventFile(
      name: "not an object", contents: file("[1, 2]"),
      message: "line 2: an event must be a JSON object, got [1, 2]"),
    MalformedEventFile(
      name: "two events on a line", contents: file(call + " {}"),
      message:
        "not valid JSON at line 2, column 70: expected the end of the line after the event"
    ),
    MalformedEventFile(
      name: "unknown model",
      contents: #"{"racecheck": 1, "form": "events", "model": "tree"}"# + "\n",
      message:
        "unknown model \"tree\"; the models are register, cas-register, counter, array, dictionary, set, queue, stack, kv"
    ),
    MalformedEventFile(
      name: "unknown form", contents: #"{"racecheck": 1, "form": "rows", "model": "kv"}"# + "\n",
      message: "'form' must be \"events\" (or absent, for the document form), got \"rows\""),
    MalformedEventFile(
      name: "event header over several lines",
      contents: "{\"racecheck\": 1,\n \"form\": \"events\", \"model\": \"kv\"}\n",
      message: "the event form's header (\"form\": \"events\") must be the whole first line"),
  ]
}()

/// The example of history-format.md's section on the event form: the first `jsonl` block after its heading.
private func documentedExample() throws -> String {
  let text = try String(
    contentsOf: DocumentationFiles.root.appendingPathComponent("docs/history-format.md"),
    encoding: .utf8)
  let section = try #require(
    text.split(separator: "## The event form, for recorders").dropFirst().first)
  let block = try #require(section.split(separator: "```jsonl\n").dropFirst().first)
  let example = try #require(block.split(separator: "```").first)
  // The block's last line is torn, as a crash leaves it: no newline after it.
  return String(example.dropLast())
}
