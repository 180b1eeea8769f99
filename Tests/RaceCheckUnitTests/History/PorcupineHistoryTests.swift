import Foundation
import RaceCheck
import Testing

// Porcupine's test data (../shared/histories/porcupine, see its README): real histories
// nobody on this project wrote, with verdicts independent checkers agree on. Every file
// must get its verdict, split by key and whole, and every key of c50-bad must be decided
// on its own. The tests skip when the folder is absent.

extension UnitTestSuite {
  @Suite(.enabled(if: PorcupineData.isPresent, "../shared/histories/porcupine is absent"))
  struct PorcupineHistoryTests {
    @Test func everyEtcdLogGetsItsVerdict() throws {
      var wrong: [String] = []
      for number in 0...102 where number != 95 {
        let name = String(format: "etcd_%03d.log", number)
        let history = try RecordedHistory(
          contentsOf: PorcupineData.folder + "/jepsen/" + name, format: .jepsenLog)
        let expected: HistoryVerdict.Kind =
          PorcupineData.linearizableEtcdLogs.contains(number) ? .linearizable : .notLinearizable
        for partitions in [true, false] {
          let verdict = try HistoryChecker(partitions: partitions).check(history).verdict
          if verdict != expected { wrong.append("\(name) (partitions \(partitions)): \(verdict)") }
        }
      }
      #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func theEmptyEtcdLogIsRejectedAsHoldingNoOperations() {
      #expect(throws: HistoryInputError.jepsen(.noOperations(format: "jepsen.util log"))) {
        try RecordedHistory(
          contentsOf: PorcupineData.folder + "/jepsen/etcd_095.log", format: .jepsenLog)
      }
    }

    @Test(arguments: [
      ("c01-ok", true), ("c01-bad", false), ("c10-ok", true), ("c10-bad", false),
      ("c50-ok", true), ("c50-bad", false),
    ])
    func keyValueHistoryGetsItsVerdictSplitByKey(file: String, linearizable: Bool) throws {
      let history = try RecordedHistory(
        contentsOf: PorcupineData.folder + "/kv/\(file).txt", format: .jepsen)
      let verdict = try HistoryChecker(checksAllPartitions: true).check(history)
      #expect(verdict.verdict == (linearizable ? .linearizable : .notLinearizable))
      #expect(verdict.parts.count > 1)
      #expect(!verdict.parts.contains { $0.verdict == .unknown })
    }

    // Whole: one search over every key's operations at once, real-time order across keys
    // included (Porcupine takes 4–5 s for c10 and does not finish c50). It decides them
    // by learning which keys a failure depends on (KeyedWholeSearch).
    @Test(arguments: [
      ("c01-ok", true), ("c01-bad", false), ("c10-ok", true), ("c10-bad", false),
      ("c50-ok", true), ("c50-bad", false),
    ])
    func keyValueHistoryGetsItsVerdictWhole(file: String, linearizable: Bool) throws {
      let history = try RecordedHistory(
        contentsOf: PorcupineData.folder + "/kv/\(file).txt", format: .jepsen)
      let verdict = try HistoryChecker(partitions: false, explains: false).check(history)
      #expect(verdict.verdict == (linearizable ? .linearizable : .notLinearizable))
      #expect(verdict.parts.count == 1 && verdict.parts[0].key == nil)
      #expect(verdict.parts[0].operations == history.operations.count)
    }

    @Test func everyKeyOfC50BadIsDecidedOnItsOwn() throws {
      let history = try RecordedHistory(
        contentsOf: PorcupineData.folder + "/kv/c50-bad.txt", format: .jepsen)
      let keys = Set(history.operations.compactMap { $0.arguments.first?.stringValue })
      var failing = 0
      for key in keys.sorted() {
        var part = history
        part.operations = history.operations.filter { $0.arguments.first == .string(key) }
        // No time limit: a key left undecided would hang the test, which is the point.
        let verdict = try HistoryChecker(explains: false).check(part).verdict
        #expect(verdict != .unknown, "key \(key)")
        if verdict == .notLinearizable { failing += 1 }
      }
      #expect(keys.count == 10)
      #expect(failing > 0)
    }

    @Test func violationOfC01BadIsExplained() throws {
      let history = try RecordedHistory(
        contentsOf: PorcupineData.folder + "/kv/c01-bad.txt", format: .jepsen)
      let violation = try #require(try HistoryChecker().check(history).violation)
      // The window is a prefix of the failing key's operations that fails on its own.
      var window = history
      window.operations = violation.window.map { history.operations[$0] }
      #expect(try HistoryChecker().check(window).verdict == .notLinearizable)
      #expect(!violation.candidates.isEmpty)
    }
  }
}

/// Where Porcupine's histories are, and their verdicts from its README.
enum PorcupineData {
  /// Tests run from the package root; the data sits beside the repository.
  static let folder = "../shared/histories/porcupine"

  static var isPresent: Bool { FileManager.default.fileExists(atPath: folder + "/README.md") }

  static let linearizableEtcdLogs: Set<Int> = [
    2, 5, 7, 18, 25, 31, 38, 45, 48, 49, 51, 53, 56, 67, 75, 76, 80, 87, 92, 98, 100, 101, 102,
  ]
}
