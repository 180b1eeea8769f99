import Foundation
import Testing

@testable import RaceCheckEngine

// One operation shape: `RecordedHistory.Operation`'s `Codable` form is an element of a history
// file's `operations`, which is what repro files hold, so a repro file written before the
// shapes were one reads back to the same bytes.

extension UnitTestSuite {
  @Suite struct OperationCodableTests {
    /// The operations of a repro file as racecheck wrote them when the file had a shape of its own: sorted keys, `return`, `result` and `status` left out when they say nothing.
    static let reproOperations = """
      [
        {
          "args" : [
            1
          ],
          "call" : 0,
          "op" : "append",
          "process" : 0,
          "return" : 40
        },
        {
          "args" : [

          ],
          "call" : 12,
          "op" : "count",
          "process" : 1,
          "result" : 0,
          "return" : 30
        },
        {
          "args" : [
            "k"
          ],
          "call" : 50,
          "op" : "get",
          "process" : "worker-2",
          "status" : "info"
        }
      ]
      """

    @Test func reproFileOperationsReadBackToTheSameBytes() throws {
      let operations = try JSONDecoder().decode(
        [RecordedHistory.Operation].self, from: Data(Self.reproOperations.utf8))
      #expect(operations[2].process == "worker-2" && operations[2].return == nil)
      #expect(operations[2].status == .info && operations[1].result == 0)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      #expect(
        String(decoding: try encoder.encode(operations), as: UTF8.self) == Self.reproOperations)
    }

    @Test func historyFileLineHoldsTheMembersTheEncoderWrites() throws {
      let operation = RecordedHistory.Operation(
        process: 3, name: "insert", arguments: [8, 0], call: 210, return: nil, status: .info)
      let line = HistoryFile.encode(RecordedHistory(model: "array", operations: [operation]))
        .split(separator: "\n")[4]
      #expect(
        line
          == #"    {"process": 3, "op": "insert", "args": [8, 0], "call": 210, "status": "info"}"#)
      let decoded = try JSONDecoder().decode(
        RecordedHistory.Operation.self, from: Data(line.utf8))
      #expect(decoded == operation)
    }

    @Test func decodingRejectsWhatTheFileReaderRejects() {
      let returnsEarly = #"{"process": 0, "op": "get", "args": [], "call": 55, "return": 40}"#
      #expect {
        try JSONDecoder().decode(RecordedHistory.Operation.self, from: Data(returnsEarly.utf8))
      } throws: { error in
        guard case DecodingError.dataCorrupted(let context) = error else { return false }
        return context.debugDescription == "'return' (40) is before 'call' (55)"
      }
    }

    @Test func runHistoryKeepsItsThreadAsTheProcess() throws {
      let history = History(operations: [.made(2, "append", [1], 1_000, 1_040)])
      let recorded = RecordedHistory(history, model: "array", initial: nil)
      #expect(recorded.operations[0].process == 2)
      #expect(recorded.operations[0].call == 0 && recorded.operations[0].return == 40)
    }
  }
}
