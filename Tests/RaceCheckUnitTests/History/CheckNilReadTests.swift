import Foundation
import RaceCheck
import Testing

// What a register read of nil means: by default that the register held nil, compared with
// the state like any other result; with `--nil-read unknown`, as in Knossos's models, a
// value not known, which fits every state. Only nil reads change meaning.

extension UnitTestSuite {
  @Suite struct CheckNilReadTests {
    @Test(arguments: ["register", "cas-register"])
    func nilReadAfterAWriteIsLegalOnlyWhenNilMeansUnknown(model: String) throws {
      let arguments = ["--format", "jepsen", "--model", model]
      let byDefault = try CheckCLI.check(contents: nilReadAfterWrite, arguments: arguments)
      #expect(byDefault.status == 1)
      #expect(byDefault.output.contains("  - lines 4–5 process 1: read → nil: the model returns 1"))
      let asKnossos = try CheckCLI.check(
        contents: nilReadAfterWrite, arguments: arguments + ["--nil-read", "unknown"])
      #expect(asKnossos.status == 0)
    }

    @Test func nilReadBeforeAnyWriteIsLegalEitherWay() throws {
      let arguments = ["--format", "jepsen", "--model", "cas-register"]
      for meaning in ["value", "unknown"] {
        let result = try CheckCLI.check(
          contents: nilReadBeforeWrite, arguments: arguments + ["--nil-read", meaning])
        #expect(result.status == 0)
      }
    }

    @Test func knossosTestsStartAtZeroAndReadNilAsUnknown() throws {
      // As Knossos's memstress histories do: a nil read first, with the register started at 0.
      let history = """
        [{:process 0, :type :invoke, :f :read, :value nil}
         {:process 0, :type :ok, :f :read, :value nil}
         {:process 1, :type :invoke, :f :cas, :value [0 1]}
         {:process 1, :type :ok, :f :cas, :value [0 1]}]
        """
      let arguments = ["--format", "jepsen", "--model", "cas-register", "--initial", "0"]
      #expect(try CheckCLI.check(contents: history, arguments: arguments).status == 1)
      let asKnossos = try CheckCLI.check(
        contents: history, arguments: arguments + ["--nil-read", "unknown"])
      #expect(asKnossos.status == 0)
    }

    @Test func readOfAValueNeverWrittenIsIllegalEitherWay() throws {
      // Only nil reads are relaxed: a read of 2 where the register held 1 still fails.
      let history = nilReadAfterWrite.replacingOccurrences(
        of: ":type :ok, :f :read, :value nil", with: ":type :ok, :f :read, :value 2")
      for meaning in ["value", "unknown"] {
        let result = try CheckCLI.check(
          contents: history,
          arguments: ["--format", "jepsen", "--model", "register", "--nil-read", meaning])
        #expect(result.status == 1)
      }
    }

    @Test func checkerReadsNilAsUnknownOnlyWhenAsked() throws {
      let history = RecordedHistory(
        model: "cas-register",
        operations: [
          .init(process: 0, name: "write", arguments: [1], call: 0, return: 1),
          .init(process: 1, name: "read", arguments: [], call: 2, return: 3, result: nil),
        ])
      #expect(try HistoryChecker().check(history).verdict == .notLinearizable)
      var checker = HistoryChecker()
      checker.nilReads = .unknown
      #expect(try checker.check(history).verdict == .linearizable)
    }

    @Test func unknownNilReadsOfAModelWithoutRegisterReadsAreAUsageError() throws {
      let result = try CheckCLI.check(
        contents: nilReadAfterWrite,
        arguments: ["--format", "jepsen", "--model", "kv", "--nil-read", "unknown"])
      #expect(result.status == 64)
      #expect(
        result.errors.first
          == "racecheck: invalid value 'unknown' for '--nil-read' of 'check': expected value, "
          + "since only reads of the register and cas-register models can be unknown and this "
          + "history's model is kv")
    }

    @Test func unknownMeaningIsAUsageError() throws {
      let result = try CheckCLI.check(
        contents: nilReadAfterWrite, arguments: ["--format", "jepsen", "--nil-read", "any"])
      #expect(result.status == 64)
      #expect(
        result.errors.first
          == "racecheck: invalid value 'any' for '--nil-read' of 'check': expected value or unknown"
      )
    }
  }
}

/// A Knossos history: a write of 1, then a read that returned nil.
let nilReadAfterWrite = """
  ; a write, then a read of nil
  [{:process 0, :type :invoke, :f :write, :value 1}
   {:process 0, :type :ok, :f :write, :value 1}
   {:process 1, :type :invoke, :f :read, :value nil}
   {:process 1, :type :ok, :f :read, :value nil}]
  """

/// A Knossos history: a read of nil, then a write of 1.
private let nilReadBeforeWrite = """
  [{:process 1, :type :invoke, :f :read, :value nil}
   {:process 1, :type :ok, :f :read, :value nil}
   {:process 0, :type :invoke, :f :write, :value 1}
   {:process 0, :type :ok, :f :write, :value 1}]
  """
