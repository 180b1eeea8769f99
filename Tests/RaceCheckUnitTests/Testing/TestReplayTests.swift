import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// A test's replay command selects exactly the calling test and repeats how it was built.
  @Suite struct TestReplayTests {
    /// Whether `swift test --filter pattern` selects the test `id`: an unanchored search, as Swift Testing and XCTest make it.
    private func selects(_ pattern: String, _ id: String) throws -> Bool {
      id.contains(try Regex(pattern))
    }

    @Test func swiftTestingTestIsSelectedFromTheStartToTheSlashBeforeItsLocation() {
      let selection = TestReplay.Selection.swiftTesting(
        id: "MyTests.ArraySuite/safeArray()/ArrayTests.swift:6:4")
      #expect(selection.testID == "MyTests.ArraySuite/safeArray()")
      #expect(selection.filter == #"^MyTests\.ArraySuite/safeArray\(\)/"#)
    }

    @Test func swiftTestingFilterSelectsTheTestAloneAmongTestsSharingItsName() throws {
      let filter = TestReplay.Selection.swiftTesting(
        id: "MyTests.ArraySuite/safeArray()/ArrayTests.swift:6:4"
      ).filter
      #expect(try selects(filter, "MyTests.ArraySuite/safeArray()/ArrayTests.swift:6:4"))
      // The same test once lines above it changed.
      #expect(try selects(filter, "MyTests.ArraySuite/safeArray()/ArrayTests.swift:9:4"))
      for other in [
        "MyTests.ArraySuite/safeArrayIsFast()/ArrayTests.swift:7:4",
        "MyTests.ArraySuite/safeArray(row:)/ArrayTests.swift:8:4",
        "MyTests.ArraySuite", "MyTests.Outer/ArraySuite/safeArray()/ArrayTests.swift:6:4",
        "OtherTests.ArraySuite/safeArray()/ArrayTests.swift:6:4",
      ] {
        #expect(try !selects(filter, other), "\(other)")
      }
    }

    @Test func xcTestMethodIsSelectedWhole() throws {
      let selection = TestReplay.Selection.xcTest(method: "MyTests.ArrayTests/testSafeArray")
      #expect(selection.testID == "MyTests.ArrayTests/testSafeArray")
      #expect(selection.filter == #"^MyTests\.ArrayTests/testSafeArray$"#)
      #expect(try selects(selection.filter, "MyTests.ArrayTests/testSafeArray"))
      for other in [
        "MyTests.ArrayTests/testSafeArrayIsFast", "MyTests.ArrayTestsMore/testSafeArray",
      ] {
        #expect(try !selects(selection.filter, other), "\(other)")
      }
    }

    @Test func functionNoFrameworkNamesIsSelectedByName() {
      let selection = TestReplay.Selection.unnamed(function: "checkEverything()")
      #expect(selection.testID == "checkEverything")
      #expect(selection.filter == "checkEverything")
    }

    @Test func currentSwiftTestingTestIsTheOneRunning() {
      let selection = TestReplay.Selection.current(function: #function)
      #expect(
        selection.testID
          == "RaceCheckUnitTests.UnitTestSuite/TestReplayTests/currentSwiftTestingTestIsTheOneRunning()"
      )
    }

    @Test func testCommandQuotesItsFilterAndRepeatsTheBuild() {
      let selection = TestReplay.Selection.xcTest(method: "MyTests.ArrayTests/testSafeArray")
      let debug = TestReplay.Build(isOptimized: false, isThreadSanitized: false)
      #expect(
        TestReplay.testCommand(selecting: selection, build: debug)
          == #"swift test --filter '^MyTests\.ArrayTests/testSafeArray$'"#)
      let release = TestReplay.Build(isOptimized: true, isThreadSanitized: false)
      #expect(
        TestReplay.testCommand(selecting: selection, build: release)
          == #"swift test -c release --filter '^MyTests\.ArrayTests/testSafeArray$'"#)
      let sanitized = TestReplay.Build(isOptimized: true, isThreadSanitized: true)
      #expect(
        TestReplay.testCommand(selecting: selection, build: sanitized)
          == #"swift test -c release --sanitize=thread --filter '^MyTests\.ArrayTests/testSafeArray$'"#
      )
    }

    @Test func buildIsOptimizedExactlyWhenDebugIsNotDefined() {
      // This test target is built in the library's configuration, with the same DEBUG.
      #if DEBUG
        #expect(!TestReplay.Build.current.isOptimized)
      #else
        #expect(TestReplay.Build.current.isOptimized)
      #endif
    }

    @Test func replayCommandSetsTheSeedAndTheScenarioBeforeTheTestCommand() {
      #expect(
        TestReplay.command(seed: 0x2A, scenario: 3, testCommand: "swift test --filter x")
          == "RACECHECK_SEED=0x000000000000002A RACECHECK_SCENARIO=3 swift test --filter x")
      #expect(
        TestReplay.command(seed: 0x2A, scenario: nil, testCommand: "swift test --filter x")
          == "RACECHECK_SEED=0x000000000000002A swift test --filter x")
    }

    @Test func replayCommandOfABodysScheduleGivesItRunLengthAndQuoted() {
      #expect(
        TestReplay.command(
          seed: 0x2A, scenario: nil, schedule: ScheduleChoices([0, 0, 1, 2, 2, 2]),
          testCommand: "swift test --filter x")
          == "RACECHECK_SEED=0x000000000000002A RACECHECK_SCHEDULE='0*2,1,2*3' swift test --filter x"
      )
    }

    @Test func replayCommandLeavesOutAScheduleOfNoSchedulingPoint() {
      #expect(
        TestReplay.command(
          seed: 0x2A, scenario: nil, schedule: ScheduleChoices([]),
          testCommand: "swift test --filter x")
          == "RACECHECK_SEED=0x000000000000002A swift test --filter x")
    }

    @Test func malformedScheduleVariableSaysWhatIsWrongWithIt() {
      let error = TestReplay.Error.badSchedule("0*x", .badRun("0*x", position: 1))
      #expect(
        error.description
          == "RACECHECK_SCHEDULE='0*x' is not a schedule: run 1, '0*x', is not a thread id "
          + "with an optional *count, such as 0 or 1*3")
    }
  }
}
