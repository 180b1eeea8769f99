import Testing

@testable import RaceCheckEngine

extension UnitTestSuite {
  /// A schedule's run-length text, as reports print it and `RACECHECK_SCHEDULE` takes it back.
  @Suite struct ScheduleChoicesTests {
    @Test func runsOfOneThreadAreCountedAndSingleChoicesWrittenBare() {
      #expect(ScheduleChoices([0, 0, 0, 1, 1, 2, 0]).description == "0*3,1*2,2,0")
      #expect(ScheduleChoices([12]).description == "12")
      #expect(ScheduleChoices([]).description == "")
    }

    @Test(arguments: [
      [0], [0, 1], [1, 1, 1, 1], [0, 0, 1, 0, 0],
      [3, 10, 10, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      Array(repeating: 0, count: 12) + Array(repeating: 1, count: 3) + [2]
        + Array(repeating: 0, count: 5),
    ])
    func textReadsBackToTheSameChoices(choices: [Int]) throws {
      let text = ScheduleChoices(choices).description
      #expect(try ScheduleChoices(parsing: text).choices == choices, "\(text)")
    }

    @Test func textMayCountRunsOfOneAndSpaceItsRuns() throws {
      #expect(try ScheduleChoices(parsing: " 0*2, 1*1 ,2 ").choices == [0, 0, 1, 2])
    }

    @Test(arguments: [
      ("0*12,1*x", ScheduleChoices.ParseError.badRun("1*x", position: 2)),
      ("0,,1", .badRun("", position: 2)),
      ("0,", .badRun("", position: 2)),
      ("-1", .badRun("-1", position: 1)),
      ("+1", .badRun("+1", position: 1)),
      ("0*0", .badRun("0*0", position: 1)),
      ("0*2*3", .badRun("0*2*3", position: 1)),
      ("0.0.1", .badRun("0.0.1", position: 1)),
      ("a", .badRun("a", position: 1)),
      ("", .empty),
      ("  ", .empty),
      ("0*100001", .tooLong),
      ("0*60000,1*40001", .tooLong),
      ("0*99999999999999999999", .badRun("0*99999999999999999999", position: 1)),
    ])
    func malformedTextIsRejectedNamingTheRun(text: String, error: ScheduleChoices.ParseError) {
      #expect(throws: error) { try ScheduleChoices(parsing: text) }
    }

    @Test func theLongestScheduleAllowedIsRead() throws {
      let text = "0*\(ScheduleChoices.maximumCount)"
      #expect(try ScheduleChoices(parsing: text).choices.count == ScheduleChoices.maximumCount)
    }

    @Test func traceWritesItsScheduleAsTheVariableTakesIt() {
      let trace = InterleavingTrace(
        threadNames: ["Thread 0", "Thread 1"], steps: [], schedule: [0, 0, 1, 1, 0])
      #expect(trace.scheduleString == "0*2,1*2,0")
    }
  }
}
