import Foundation
import RaceCheck
import Synchronization
import Testing

// The history file of history-format.md as `racecheck check` meets it: a good file is
// read, and every kind of malformed file is rejected with the message the format asks
// for (the operation's index and the problem) and exit status 65, quickly.

extension UnitTestSuite {
  @Suite struct HistoryFileReaderTests {
    @Test func documentExampleIsRead() throws {
      let history = try HistoryFile.read(Array(example.utf8), models: BuiltInModels.names)
      #expect(history.model == "array")
      #expect(history.operations.count == 4)
      #expect(history.operations[1].result == 0)
      #expect(history.operations[3].status == .info && history.operations[3].return == nil)
      #expect(history.meta == .object(["target": "LockArray", "seed": "0x5eed", "threads": 2]))
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test func writtenHistoryReadsBack() throws {
      let history = try HistoryFile.read(Array(example.utf8), models: BuiltInModels.names)
      let text = HistoryFile.encode(history)
      // The lines differ (the encoder writes one operation a line); the rest reads back.
      var readBack = try HistoryFile.read(Array(text.utf8), models: BuiltInModels.names)
      var expected = history
      for index in expected.operations.indices {
        readBack.operations[index].source = .unknown
        expected.operations[index].source = .unknown
      }
      #expect(readBack == expected)
    }

    @Test func fieldGivenTwiceKeepsItsLastValue() throws {
      let text = file(
        #"{"process": 0, "op": "get", "process": "c", "args": ["a"], "call": 0, "return": 9, "return": 10}"#
      )
      let history = try HistoryFile.read(Array(text.utf8), models: BuiltInModels.names)
      #expect(history.operations[0].process == "c" && history.operations[0].return == 10)
    }

    @Test func memberOutsideTheFormatIsReadAndDropped() throws {
      let text = file(
        #"{"process": 0, "op": "get", "args": ["a"], "call": 0, "return": 1, "note": {"by": [1, 2]}}"#
      )
      let history = try HistoryFile.read(Array(text.utf8), models: BuiltInModels.names)
      #expect(history.operations.count == 1 && history.operations[0].name == "get")
    }

    @Test(arguments: malformedFiles)
    func malformedFileIsRejectedWithItsMessage(file: MalformedFile) throws {
      let result = try CheckCLI.check(contents: file.contents)
      #expect(result.status == 65)
      #expect(result.errors == ["racecheck: \(result.path): \(file.message)"])
      #expect(result.output.isEmpty)
    }

    @Test func hundredMegabyteFileWithABadLastOperationIsRejectedNamingIt() throws {
      // About 100 MB of valid operations with 10 KB values, then one whose return is before its call.
      let payload = String(repeating: "x", count: 10_000)
      var bytes = Array(#"{"racecheck": 1, "model": "kv", "operations": ["#.utf8)
      bytes.reserveCapacity(101_000_000)
      var index = 0
      while bytes.count < 100_000_000 {
        let operation =
          #"{"process": \#(index), "op": "put", "args": ["a", "\#(payload)"], "call": \#(2 * index), "return": \#(2 * index + 1)},"#
        bytes += Array(operation.utf8)
        index += 1
      }
      bytes += Array(#"{"process": 0, "op": "get", "args": ["a"], "call": 9, "return": 8}]}"#.utf8)
      let result = try CheckCLI.check(bytes: bytes)
      #expect(result.status == 65)
      #expect(
        result.errors == [
          "racecheck: \(result.path): operations[\(index)] (line 1): 'return' (8) is before 'call' (9)"
        ])
    }
  }
}

/// One malformed file and the message it must be rejected with.
struct MalformedFile: Sendable, CustomTestStringConvertible {
  var name: String
  var contents: String
  var message: String

  var testDescription: String { name }
}

private func file(_ operations: String, model: String = "kv") -> String {
  #"{"racecheck": 1, "model": "\#(model)", "operations": [\#(operations)]}"#
}

private let malformedFiles: [MalformedFile] = [
  MalformedFile(name: "empty", contents: "", message: "the file is empty"),
  MalformedFile(name: "whitespace only", contents: " \n\t", message: "the file is empty"),
  MalformedFile(
    name: "truncated JSON", contents: #"{"racecheck": 1, "model": "kv","#,
    message: "not valid JSON at line 1, column 32: expected a string key, found the end of the file"
  ),
  MalformedFile(
    name: "bad JSON on line 2", contents: "{\"racecheck\": 1,\n \"model\" \"kv\"}",
    message: "not valid JSON at line 2, column 10: expected ':' after the key, found '\"'"),
  MalformedFile(
    name: "nesting too deep", contents: String(repeating: "[", count: 100_000),
    message: "not valid JSON at line 1, column 257: nesting deeper than 256 levels"),
  MalformedFile(
    name: "not an object", contents: "[1, 2]",
    message: "a history file is a JSON object, got [1, 2]"),
  MalformedFile(
    name: "unknown version", contents: #"{"racecheck": 2, "model": "kv", "operations": []}"#,
    message: "history format version 2 is not supported (this racecheck reads version 1)"),
  MalformedFile(
    name: "no version", contents: #"{"model": "kv", "operations": []}"#,
    message: "'racecheck' is missing"),
  MalformedFile(
    name: "unknown model", contents: #"{"racecheck": 1, "model": "kvv", "operations": []}"#,
    message:
      "unknown model \"kvv\"; the models are register, cas-register, counter, array, dictionary, set, queue, stack, kv"
  ),
  MalformedFile(
    name: "bad initial state",
    contents: #"{"racecheck": 1, "model": "array", "initial": 3, "operations": []}"#,
    message: "'initial': the array model's state must be a list, got 3"),
  MalformedFile(
    name: "unknown operation",
    contents: file(#"{"process": 0, "op": "gett", "args": ["a"], "call": 0, "return": 1}"#),
    message: "operations[0] (line 1): the kv model has no operation 'gett'"),
  MalformedFile(
    name: "wrong argument type",
    contents: file(
      #"{"process": 0, "op": "get", "args": ["a"], "call": 0, "return": 1, "result": ""}, {"process": 1, "op": "put", "args": ["a", 3], "call": 0, "return": 1}"#
    ),
    message: "operations[1] (line 1): argument 2 of 'put' must be a string, got 3"),
  MalformedFile(
    name: "wrong argument count",
    contents: file(#"{"process": 0, "op": "put", "args": ["a"], "call": 0, "return": 1}"#),
    message: "operations[0] (line 1): 'put' takes 2 arguments, got 1"),
  MalformedFile(
    name: "missing field",
    contents: file(#"{"process": 0, "op": "get", "args": ["a"], "return": 1}"#),
    message: "operations[0] (line 1): 'call' is missing"),
  MalformedFile(
    name: "time of the wrong type",
    contents: file(#"{"process": 0, "op": "get", "args": ["a"], "call": "0", "return": 1}"#),
    message: "operations[0] (line 1): 'call' must be an integer, got \"0\""),
  MalformedFile(
    name: "return before call",
    contents: file(#"{"process": 0, "op": "get", "args": ["a"], "call": 55, "return": 40}"#),
    message: "operations[0] (line 1): 'return' (40) is before 'call' (55)"),
  MalformedFile(
    name: "member outside the format that is not JSON",
    contents: file(#"{"process": 0, "op": "get", "args": ["a"], "call": 0, "note": [1,, 2]}"#),
    message: "not valid JSON at line 1, column 113: expected a value, found ','"),
  MalformedFile(
    name: "unknown status",
    contents: file(
      #"{"process": 0, "op": "get", "args": ["a"], "call": 0, "return": 1, "status": "done"}"#),
    message: "operations[0] (line 1): 'status' must be \"ok\", \"fail\" or \"info\", got \"done\""),
  MalformedFile(
    name: "overlapping operations of one process",
    contents: file(
      #"{"process": 0, "op": "get", "args": ["a"], "call": 0, "return": 40, "result": ""}, {"process": 0, "op": "get", "args": ["a"], "call": 40, "return": 50, "result": ""}"#
    ),
    message:
      "operations[1] (line 1): process 0 calls at 40 while its operations[0] (line 1) has not returned (call 0, return 40)"
  ),
  MalformedFile(
    name: "call after an info operation of the same process",
    contents: file(
      #"{"process": "c", "op": "put", "args": ["a", "x"], "call": 0, "status": "info"}, {"process": "c", "op": "get", "args": ["a"], "call": 40, "return": 50, "result": ""}"#
    ),
    message:
      "operations[1] (line 1): process \"c\" calls at 40 while its operations[0] (line 1) has an unknown outcome (status \"info\", call 0), so the process invokes nothing after it"
  ),
]

private let example = """
  {
    "racecheck": 1,
    "model": "array",
    "initial": [],
    "meta": { "target": "LockArray", "seed": "0x5eed", "threads": 2 },
    "operations": [
      { "process": 0, "op": "append", "args": [7],    "call": 0,  "return": 40 },
      { "process": 1, "op": "count",  "args": [],     "call": 10, "return": 30, "result": 0 },
      { "process": 1, "op": "get",    "args": [0],    "call": 35, "return": 50, "result": 7 },
      { "process": 2, "op": "insert", "args": [9, 0], "call": 45, "status": "info" }
    ]
  }
  """

/// Runs `racecheck check` on a file written to a temporary folder, capturing what it prints.
enum CheckCLI {
  struct Result {
    var path: String
    var status: Int32
    var output: [String]
    var errors: [String]
  }

  final class Lines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
  }

  static func check(contents: String, arguments: [String] = []) throws -> Result {
    try check(bytes: Array(contents.utf8), arguments: arguments)
  }

  static func check(bytes: [UInt8], arguments: [String] = []) throws -> Result {
    let path =
      FileManager.default.temporaryDirectory.path + "/racecheck-history-\(UUID().uuidString).json"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return run(["check", path] + arguments, path: path)
  }

  static func run(_ arguments: [String], path: String) -> Result {
    let output = Lines()
    let errors = Lines()
    let status = CommandLineDriver(targets: [], programName: "racecheck").run(
      arguments, output: CommandOutput { output.append($0) },
      errors: CommandOutput { errors.append($0) })
    return Result(path: path, status: status, output: output.all, errors: errors.all)
  }
}
