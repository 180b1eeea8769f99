import RaceCheck
import Testing

// A history file's `faults`: what a workload's nemesis did, written and read back, and
// rejected with the element's index and the problem when malformed; never checked.

extension UnitTestSuite {
  @Suite struct HistoryFaultsTests {
    static func file(faults: String) -> String {
      """
      {"racecheck": 1, "model": "register", "faults": \(faults),
       "operations": [{"process": 0, "op": "write", "args": [1], "call": 0, "return": 5}]}
      """
    }

    static func read(_ text: String) throws(HistoryFileError) -> RecordedHistory {
      try HistoryFile.read(Array(text.utf8), models: BuiltInModels.names)
    }

    @Test func faultsAreWrittenAndReadBack() throws {
      var history = try Self.read(Self.file(faults: "[]"))
      history.faults = [
        RecordedHistory.Fault(kind: .pause, target: "etcd-2", start: 1, end: 4),
        RecordedHistory.Fault(kind: .kill, target: "etcd-0", start: 6, end: nil),
      ]
      let readBack = try Self.read(HistoryFile.encode(history))
      #expect(readBack.faults == history.faults)
      #expect(try HistoryChecker().check(readBack).verdict == .linearizable)
    }

    @Test func aFileWithoutFaultsHasNone() throws {
      #expect(try Self.read(Self.file(faults: "null")).faults.isEmpty)
      let history = try Self.read(Self.file(faults: "[]"))
      #expect(!HistoryFile.encode(history).contains("faults"))
    }

    @Test(
      arguments: [
        ("{}", "'faults' must be an array, got {}"),
        ("[3]", "faults[0]: must be an object, got 3"),
        ("[{\"target\": \"a\", \"start\": 1}]", "faults[0]: 'fault' is missing"),
        (
          "[{\"fault\": \"partition\", \"target\": \"a\", \"start\": 1}]",
          "faults[0]: 'fault' must be \"pause\" or \"kill\", got \"partition\""
        ),
        ("[{\"fault\": \"pause\", \"start\": 1}]", "faults[0]: 'target' is missing"),
        (
          "[{\"fault\": \"pause\", \"target\": \"a\", \"start\": 1.5}]",
          "faults[0]: 'start' must be an integer, got 1.5"
        ),
        (
          "[{\"fault\": \"kill\", \"target\": \"a\", \"start\": 9, \"end\": 3}]",
          "faults[0]: 'end' (3) is before 'start' (9)"
        ),
      ])
    func malformedFaultsAreRejected(faults: String, message: String) {
      #expect {
        _ = try Self.read(Self.file(faults: faults))
      } throws: { error in
        "\(error)" == message
      }
    }
  }
}
