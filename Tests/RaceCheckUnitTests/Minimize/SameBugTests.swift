import Fixtures
import Foundation
import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// Shrinking keeps the bug it started with, and tries only candidates the spec's requirements allow.
  @Suite struct SameBugTests {
    static func crash(_ signal: Int32) -> ObservedFailure {
      let evidence = CrashEvidence(
        kind: .crash, signal: SignalName.name(of: signal), message: nil, runnerThread: 0,
        threadName: "racecheck-0", invocation: 3, inFlight: [], stack: "", threadStacks: [],
        functions: [], detail: nil, standardError: nil)
      return ObservedFailure(evidence: .death(evidence), signal: signal)
    }

    static let wrongResults = ObservedFailure(
      evidence: .nonLinearizable(
        History(operations: []), Explanation(longestPrefix: [], state: "[]", candidates: [])))

    @Test func aMemoryFaultMayShrinkToResultsNoOrderExplains() {
      #expect(Self.wrongResults.isSameBug(as: Self.crash(SIGSEGV)))
      #expect(Self.crash(SIGBUS).isSameBug(as: Self.crash(SIGSEGV)))
      #expect(Self.crash(SIGSEGV).isSameBug(as: Self.crash(SIGSEGV)))
    }

    @Test func anAllocatorAbortIsTheSameCorruptionAsABadAccess() {
      // One torn string faults, or makes malloc or the runtime abort, from run to run.
      #expect(Self.crash(SIGABRT).isSameBug(as: Self.crash(SIGSEGV)))
      #expect(Self.crash(SIGSEGV).isSameBug(as: Self.crash(SIGABRT)))
      #expect(Self.wrongResults.isSameBug(as: Self.crash(SIGABRT)))
      // A trap stays the code's own check.
      #expect(!Self.crash(SIGILL).isSameBug(as: Self.crash(SIGABRT)))
    }

    @Test func aHangMayShrinkToADeathByMemoryCorruption() {
      var hang = Self.crash(SIGSEGV)
      hang.signal = nil
      hang.evidence = .death(
        CrashEvidence(
          kind: .hang, signal: nil, message: nil, runnerThread: nil, threadName: nil,
          invocation: 3, inFlight: [], stack: "", threadStacks: [], functions: [], detail: nil,
          standardError: nil))
      #expect(Self.crash(SIGSEGV).isSameBug(as: hang))
      #expect(Self.crash(SIGABRT).isSameBug(as: hang))
      #expect(hang.isSameBug(as: hang))
      // A trap, or results that fail, may have a cause the hang does not share.
      #expect(!Self.crash(SIGILL).isSameBug(as: hang))
      #expect(!Self.wrongResults.isSameBug(as: hang))
      // Nor does a death by corruption shrink to a hang.
      #expect(!hang.isSameBug(as: Self.crash(SIGSEGV)))
    }

    @Test func otherFailuresKeepTheirKindAndSignal() {
      // A trap is the code's own check, which a race need not reach.
      #expect(!Self.wrongResults.isSameBug(as: Self.crash(SIGILL)))
      #expect(!Self.crash(SIGSEGV).isSameBug(as: Self.crash(SIGILL)))
      // Results that fail may have a cause no fault shares.
      #expect(!Self.crash(SIGSEGV).isSameBug(as: Self.wrongResults))
      #expect(Self.wrongResults.isSameBug(as: Self.wrongResults))
    }

    @Test func aTornReadMayShrinkToADeathByTheCorruptionOfTheSameRace() {
      // Results that fail need not share a fault's cause, unless they prove the race themselves.
      #expect(!Self.crash(SIGSEGV).isSameBug(as: Self.wrongResults))
      #expect(Self.crash(SIGSEGV).isSameBug(as: Self.wrongResults, originalProvesARace: true))
      #expect(Self.crash(SIGABRT).isSameBug(as: Self.wrongResults, originalProvesARace: true))
      #expect(!Self.crash(SIGILL).isSameBug(as: Self.wrongResults, originalProvesARace: true))
    }

    @Test func aRegisterReadOfAValueNoWriteStoredIsATornRead() {
      @Sendable func make() -> Int { 0 }
      let spec = Spec("Register", make: make, model: RegisterModel(state: .string(""))) {
        Operation("read") { (_: Int) in "" }
        Operation("write", .element(of: ["ab"])) { (_: Int, _: String) in }
      }
      func history(reading value: String) -> History {
        History(operations: [
          .made(0, "write", [.string("ab")], 0, 3),
          .made(1, "read", [], 1, 2, result: .string(value)),
        ])
      }
      #expect(spec.readsATornValue(in: history(reading: "a")))
      #expect(!spec.readsATornValue(in: history(reading: "ab")))
      #expect(!spec.readsATornValue(in: history(reading: "")))
    }
  }
}
