import CTracedMemoryFixtures
import RaceCheck
import Testing

extension RaceCheckTestSuite {
  /// C programs whose bugs need a preemption between two plain memory accesses: found once their target traces loads and stores, and never passed as a proof without it.
  @Suite struct TracedMemoryTests {
    /// Partial-order reduction with a budget no program here comes near: its pass is the search's end.
    static let everySchedule = Configuration.Exploration(
      strategy: .dpor, schedules: 20_000, isolated: false)

    @Test func twoPlainStoresTracedAreTwoPointsAndAReadBetweenThemIsFound() throws {
      var report: CheckReport?
      withKnownIssue {
        report = explore("reorder, traced", configuration: Self.everySchedule) {
          if rc_reorder_traced() != 0 { Issue.record("read between the two stores") }
        }
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: reorder, traced")
      }
      let failure = try #require(report?.failure, "\(report.map(\.description) ?? "no report")")
      #expect(failure.kind == .failedExpectation, "\(report.map(\.description) ?? "")")
      #expect(report?.description.contains("read between the two stores") == true)
      // The trace names the C globals from the executable's symbol table, statics included.
      #expect(report?.description.contains("global 'reorder_b_traced' store") == true)
    }

    @Test func untracedPlainStoresMakeAPassThatSaysItIsNoProof() {
      let report = explore("reorder, untraced", configuration: Self.everySchedule) {
        if rc_reorder_untraced() != 0 { Issue.record("read between the two stores") }
      }
      // The scheduler cannot split the two stores, so every schedule of what it sees passes;
      // the pass must not claim that every interleaving of the program was explored.
      #expect(report.verdict == .pass, "\(report)")
      // Two threads that share nothing the scheduler sees, made and joined by a third: their
      // starts, ends and joins commute, so every order is one class.
      #expect(report.search.invocations == 1, "\(report)")
      #expect(!report.description.contains("exhaustive"), "\(report)")
      #expect(report.description.contains("Not a proof"), "\(report)")
      #expect(
        Set(report.search.untracedCode)
          == ["rc_reorder_untraced", "reorder_set_untraced", "reorder_check_untraced"],
        "\(report)")
    }

    @Test func anUpdateUnderTheWrongLockIsLostWhenTraced() throws {
      var report: CheckReport?
      withKnownIssue {
        report = explore("wronglock, traced", configuration: Self.everySchedule) {
          if rc_wronglock_traced() != 2 { Issue.record("an update was lost") }
        }
      } matching: { issue in
        issue.comments.map(\.rawValue).joined().contains("racecheck: wronglock, traced")
      }
      #expect(report?.failure != nil, "\(report.map(\.description) ?? "no report")")
    }

    @Test func anUpdateUnderTheWrongLockUntracedIsNoProofEither() {
      let report = explore("wronglock, untraced", configuration: Self.everySchedule) {
        if rc_wronglock_untraced() != 2 { Issue.record("an update was lost") }
      }
      #expect(!report.description.contains("exhaustive"), "\(report)")
      #expect(Set(report.search.untracedCode).contains("wronglock_add_untraced"), "\(report)")
    }

    @Test func aCreatorThatTouchesOnlyItsOwnStackCountsAsTraced() {
      let report = explore("stack-only creator, traced", configuration: Self.everySchedule) {
        rc_stack_only_creator_traced()
      }
      #expect(report.description.contains("passed (exhaustive)"), "\(report)")
      #expect(report.search.untracedCode.isEmpty, "\(report)")
    }

    @Test func theFixedTwinTracedPassesExhaustivelyAndSaysWhatItCovered() {
      let report = explore("one lock, traced", configuration: Self.everySchedule) {
        if rc_onelock_traced() != 2 { Issue.record("an update was lost") }
      }
      #expect(report.verdict == .pass, "\(report)")
      #expect(report.description.contains("passed (exhaustive)"), "\(report)")
      #expect(report.description.contains("loads and stores of C code"), "\(report)")
      #expect(report.search.untracedCode.isEmpty, "\(report)")
    }
  }
}
