import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

// `bench checker --generate`'s histories: the same text for the same seed, read back by
// `check` in the format their extension names, with the verdict they have by
// construction; the illegal register histories decided by the proof of what was planted in
// them, the legal ones by none.

extension UnitTestSuite {
  @Suite struct GeneratedHistoryTests {
    static let small: [GeneratedHistory] = [
      GeneratedHistory(family: .keyValue(keys: 10, clients: 10), operations: 600, seed: 1),
      GeneratedHistory(family: .keyValue(keys: 100, clients: 10), operations: 600, seed: 2),
      GeneratedHistory(family: .sequential, operations: 600, seed: 3),
      GeneratedHistory(family: .casRegister(clients: 10, planted: nil), operations: 600, seed: 4),
      GeneratedHistory(family: .casRegister(clients: 20, planted: nil), operations: 600, seed: 5),
      GeneratedHistory(
        family: .casRegister(clients: 10, planted: .impossibleRead), operations: 600, seed: 6),
      GeneratedHistory(
        family: .casRegister(clients: 20, planted: .impossibleRead), operations: 600, seed: 7),
      GeneratedHistory(
        family: .casRegister(clients: 10, planted: .staleRead), operations: 600, seed: 8),
      GeneratedHistory(
        family: .casRegister(clients: 20, planted: .staleRead), operations: 600, seed: 9),
    ]

    @Test func theSameSeedWritesTheSameText() {
      for history in Self.small {
        #expect(history.text() == history.text(), "\(history.path)")
        var other = history
        other.seed += 1
        #expect(history.text() != other.text(), "\(history.path)")
      }
    }

    @Test(arguments: small)
    func checkReadsItWithTheVerdictItWasMadeWith(history: GeneratedHistory) throws {
      let recorded = try history.recorded()
      #expect(recorded.operations.count == history.operations)
      let verdict = try HistoryChecker().check(recorded)
      #expect(verdict.verdict == history.expectedVerdict, "\(history.path)")
      guard case .casRegister(_, let planted) = history.family else { return }
      // Each planted violation is decided by its own proof; a legal history by none.
      switch (planted, verdict.violation?.proof) {
      case (nil, nil), (.impossibleRead, .impossibleRead?), (.staleRead, .staleRead?): break
      default:
        Issue.record(
          "\(history.path): planted \(String(describing: planted)), proof \(String(describing: verdict.violation?.proof))"
        )
      }
    }

    // Legal by construction, which the search confirms without any proof's help.
    @Test(arguments: [4, 5, 6] as [UInt64])
    func legalRegisterHistoriesHaveTimeoutsAndNoProof(seed: UInt64) throws {
      let recorded = try GeneratedHistory(
        family: .casRegister(clients: 10, planted: nil), operations: 400, seed: seed
      ).recorded()
      #expect(recorded.operations.contains { $0.status == .info })
      #expect(recorded.operations.contains { $0.name == "cas" && $0.result == false })
      let verdict = try HistoryChecker().check(recorded)
      #expect(verdict.verdict == .linearizable)
    }

    @Test func sequentialHistoriesDoNotOverlap() throws {
      let recorded = try GeneratedHistory(family: .sequential, operations: 300, seed: 9).recorded()
      let byCall = recorded.operations.sorted { $0.call < $1.call }
      for (earlier, later) in zip(byCall, byCall.dropFirst()) {
        #expect(try #require(earlier.return) < later.call)
      }
    }

    @Test func theStandardSetNamesEveryFamilyAndSize() {
      let paths = Set(GeneratedHistory.standardSet(seed: 1).map(\.path))
      #expect(paths.count == 26)
      #expect(paths.contains("cas/cas-c20-100000-stale.log"))
      #expect(paths.contains("kv/kv-1000keys-c10-100000.txt"))
      #expect(paths.contains("sequential/sequential-1000000.txt"))
      #expect(paths.contains("cas/cas-c20-10000-bad.log"))
    }
  }
}
