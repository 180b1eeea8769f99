import RaceCheck
import Testing

// Inputs that crashed, hung or slowed a history reader, found while fuzzing the readers
// (Scripts/fuzz-readers), each with what the reader must now do with it: read it, or
// reject it with the precise message and exit status 65.

extension UnitTestSuite {
  @Suite struct HistoryReaderFuzzFindingsTests {
    /// EDN discards (`#_ form`) were skipped by recursion: 200 000 of them overflowed the stack.
    static let discards = String(repeating: "#_ 1 ", count: 200_000)

    @Test func longRunOfDiscardedEDNFormsIsSkipped() throws {
      let lines = [
        #"{:process 0, :type :invoke, :f :get, :key "a", :value nil}"#,
        #"{:process 0, :type :ok, :f :get, :key "a", :value "#,
      ]
      let contents = lines[0] + "\n" + lines[1] + Self.discards + #""x"}"#
      let history = try RecordedHistory(bytes: Array(contents.utf8), format: .jepsen)
      #expect(history.operations.count == 1)
      #expect(history.operations[0].result == "x")
    }

    @Test func longRunOfDiscardedEDNFormsBeforeTheEndOfTheLineIsRejected() throws {
      let line = #"{:process 0, :type :invoke, :f :get, :key "a", :value "# + Self.discards
      let result = try CheckCLI.check(contents: line, arguments: ["--format", "jepsen"])
      #expect(result.status == 65)
      #expect(
        result.errors == [
          "racecheck: \(result.path): line 1, column \(line.utf8.count + 1): not valid EDN: expected '}', found the end of the line"
        ])
    }

    @Test func discardedFormBeforeAClosingBraceIsSkipped() throws {
      let contents = #"""
        {:process 0, :type :invoke, :f :get, :key "a", :value nil #_ :ignored}
        {:process 0, :type :ok, :f :get, :key "a", :value "" #_ [1 #_ 2]}
        """#
      let history = try RecordedHistory(bytes: Array(contents.utf8), format: .jepsen)
      #expect(history.operations.count == 1)
      #expect(history.operations[0].result == "")
    }
  }
}
