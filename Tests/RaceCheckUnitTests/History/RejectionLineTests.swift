import Foundation
import RaceCheck
import Testing

// A rejected history file names the operation by its index and by the line where it
// starts, as the checker's citations do (`operations[2] (line 5)`); an operation that
// comes from no file keeps its index alone. The files below spread their operations over
// several lines, one of them over three, so a line that is missing, counted from the
// wrong place or taken from another operation changes the message.

extension UnitTestSuite {
  @Suite struct RejectionLineTests {
    @Test func returnBeforeCallNamesTheLineWhereTheOperationStarts() throws {
      let result = try CheckCLI.check(
        contents: spread(
          """
          {"process": 0, "op": "put", "args": ["a", "x"],
               "call": 0,
               "return": 10}
          """,
          """
          {"process": 1, "op": "get", "args": ["a"], "call": 55,
               "return": 40, "result": "x"}
          """,
          #"{"process": 0, "op": "get", "args": ["a"], "call": 60, "return": 70, "result": "x"}"#
        ))
      #expect(result.status == 65)
      #expect(
        result.errors == [
          "racecheck: \(result.path): operations[1] (line 6): 'return' (40) is before 'call' (55)"
        ])
    }

    @Test func elementThatIsNotAnObjectNamesItsLine() throws {
      let result = try CheckCLI.check(
        contents: spread(
          #"{"process": 0, "op": "get", "args": ["a"], "call": 0, "return": 10, "result": ""}"#,
          #"{"process": 0, "op": "get", "args": ["a"], "call": 20, "return": 30, "result": ""}"#,
          "5"))
      #expect(
        result.errors == [
          "racecheck: \(result.path): operations[2] (line 5): must be an object, got 5"
        ])
    }

    @Test func modelRejectionNamesTheOperationsLine() throws {
      let result = try CheckCLI.check(
        contents: spread(
          #"{"process": 0, "op": "put", "args": ["a", "x"], "call": 0, "return": 10}"#,
          #"{"process": 1, "op": "put", "args": ["a"], "call": 20, "return": 30}"#))
      #expect(result.status == 65)
      #expect(
        result.errors == [
          "racecheck: \(result.path): operations[1] (line 4): 'put' takes 2 arguments, got 1"
        ])
    }

    @Test func overlapNamesTheLinesOfBothOperations() throws {
      let result = try CheckCLI.check(
        contents: spread(
          #"{"process": 0, "op": "put", "args": ["a", "x"], "call": 0, "return": 40}"#,
          #"{"process": 1, "op": "get", "args": ["a"], "call": 5, "return": 8, "result": ""}"#,
          #"{"process": 0, "op": "get", "args": ["a"], "call": 30, "return": 50, "result": "x"}"#
        ))
      #expect(result.status == 65)
      #expect(
        result.errors == [
          "racecheck: \(result.path): operations[2] (line 5): process 0 calls at 30 while its "
            + "operations[0] (line 3) has not returned (call 0, return 40)"
        ])
    }

    @Test func readerErrorCarriesTheLineAsItsSource() throws {
      let text = spread(
        #"{"process": 0, "op": "get", "args": ["a"], "call": 0, "return": 10, "result": ""}"#,
        #"{"process": 0, "op": "get", "args": ["a"], "call": "20", "return": 30}"#)
      #expect(
        throws: HistoryFileError.operation(
          index: 1, source: .element(line: 4),
          .wrongType(field: "call", expected: "an integer", got: "\"20\""))
      ) {
        try HistoryFile.read(Array(text.utf8), models: BuiltInModels.names)
      }
    }

    @Test func operationFromNoFileIsNamedByItsIndexAlone() throws {
      let history = RecordedHistory(
        model: "kv",
        operations: [
          RecordedHistory.Operation(
            process: 0, name: "put", arguments: ["a", "x"], call: 0, return: 10),
          RecordedHistory.Operation(
            process: 0, name: "gett", arguments: ["a"], call: 20, return: 30),
        ])
      let error = #expect(throws: HistoryFileError.self) { try HistoryChecker().check(history) }
      #expect(error?.description == "operations[1]: the kv model has no operation 'gett'")
    }
  }
}

/// A kv history file with the operations one per line from line 3 on, after the header and `"operations": [`.
private func spread(_ operations: String...) -> String {
  """
  {"racecheck": 1, "model": "kv",
   "operations": [
  \(operations.joined(separator: ",\n"))
  ]}
  """
}
