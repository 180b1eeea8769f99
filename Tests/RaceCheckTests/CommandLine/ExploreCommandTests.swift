import Fixtures
import Foundation
import RaceCheck
import RaceCheckTestSupport
import Testing

@testable import RaceCheckCommandLine

extension RaceCheckTestSuite {
  @Suite struct ExploreCommandTests {
    private static let driver = CLI.driver(
      targets: Catalogue.explorationTargets + [CLI.locked])

    @Test func exploreReportsTheFailingScheduleAndAReplayLineThatExploresAgain() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let junit = directory.path + "/explore.xml"
      let result = CLI.invoke(
        [
          "explore", "HandoffSignalledTooEarly", "--seed", "1", "--no-isolation", "--repro-dir",
          directory.path, "--junit", junit, "--json",
        ], driver: Self.driver)
      #expect(result.status == 1, "\(result.output)\(result.errors)")
      let document = try #require(result.jsonObject, "\(result.output)")
      let diagnosis = document["diagnosis"] as? [String: Any]
      #expect(diagnosis?["pattern"] as? String == "lost-wakeup", "\(result.output)")
      #expect(document["failure"] as? String == "deadlock", "\(result.output)")
      let replay = try #require(document["replayCommand"] as? String)
      #expect(
        replay.hasPrefix("racecheck explore HandoffSignalledTooEarly --seed 0x0000000000000001"))
      #expect(!replay.contains("--threads") && !replay.contains("--mode"), "\(replay)")
      let xml = try String(contentsOfFile: junit, encoding: .utf8)
      #expect(xml.contains("HandoffSignalledTooEarly") && xml.contains("<failure"), "\(xml)")
    }

    @Test func theScheduleDemoGivesABodyAnExplorationsBudgetNotASpecsScenario() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      // Seed 1 finds this bug after more than the 50 schedules a spec's scenario gets.
      let result = CLI.invoke(
        [
          "demo", "--mode", "schedule", "--explorations", "--targets",
          "StaleSearchShown,CompletedOnce",
          "--seeds", "1", "--no-isolation", "--repro-dir", directory.path, "--json",
        ], driver: Self.driver)
      #expect(result.status == 0, "\(result.output)\(result.errors)")
      let rows = try #require(result.jsonObject?["rows"] as? [[String: Any]])
      #expect(rows.map { $0["target"] as? String } == ["StaleSearchShown", "CompletedOnce"])
      let onlyBodies = CLI.invoke(
        ["demo", "--explorations", "--targets", CLI.locked.name], driver: Self.driver)
      #expect(onlyBodies.status == 64, "\(onlyBodies.output)\(onlyBodies.errors)")
    }

    @Test func aFailedExpectationIsInTheJSON() throws {
      let result = CLI.invoke(
        ["explore", "ProfileAssertedAfterAYield", "--seed", "1", "--no-isolation", "--json"],
        driver: Self.driver)
      #expect(result.status == 1, "\(result.output)\(result.errors)")
      let document = try #require(result.jsonObject, "\(result.output)")
      #expect(document["failure"] as? String == "failed-expectation")
      let expectations = try #require(document["failedExpectations"] as? [[String: Any]])
      #expect(
        (expectations.first?["message"] as? String)?.contains("(model.name → \"—\") == \"Ada\"")
          == true, "\(expectations)")
    }

    @Test func aPassSaysWhatItRan() {
      let result = CLI.invoke(
        ["explore", "HandoffCheckedBeforeWaiting", "--schedules", "30", "--no-isolation"],
        driver: Self.driver)
      #expect(result.status == 0, "\(result.output)\(result.errors)")
      #expect(result.output.contains("passed: 30 schedules of the body (random walk)"))
    }

    @Test func replayLinesScheduleRunsAloneAndFailsAgainWithTheSameTrace() throws {
      let arguments = ["explore", "HandoffSignalledTooEarly", "--seed", "1", "--no-isolation"]
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let searched = CLI.invoke(
        arguments + ["--repro-dir", directory.path], driver: Self.driver)
      #expect(searched.status == 1, "\(searched.output)\(searched.errors)")
      let schedule = try #require(
        searched.output.firstMatch(of: /\nSchedule: ([0-9*,]+)\n/).map { String($0.output.1) },
        "\(searched.output)")
      #expect(
        searched.output.contains(
          "Replay: racecheck explore HandoffSignalledTooEarly --seed 0x0000000000000001 "
            + "--repro-dir \(directory.path) --no-isolation --schedule '\(schedule)'"),
        "\(searched.output)")
      let replayed = CLI.invoke(
        arguments + ["--repro-dir", directory.path, "--schedule", schedule], driver: Self.driver)
      #expect(replayed.status == 1, "\(replayed.output)\(replayed.errors)")
      #expect(replayed.output.contains("failed in 1 of 1 schedules"), "\(replayed.output)")
      // The same interleaving: the report from its heading to the replay line, but the timing.
      func interleaving(_ output: String) -> String? {
        output.firstMatch(of: /Interleaving[^\n]*\n(?s:.*?)\n\nSchedule: [^\n]*\n/).map {
          String($0.output)
        }
      }
      #expect(interleaving(replayed.output) != nil, "\(replayed.output)")
      #expect(
        interleaving(replayed.output)?.replacingOccurrences(of: ", shrunk from 2", with: "")
          == interleaving(searched.output)?.replacingOccurrences(of: ", shrunk from 2", with: ""),
        "\(replayed.output)\n\n\(searched.output)")
    }

    @Test func aScheduleTheFixedBodyLeavesIsInconclusive() {
      // The twin waits only while nothing was handed off: it never waits at all here.
      let result = CLI.invoke(
        ["explore", "HandoffCheckedBeforeWaiting", "--no-isolation", "--schedule", "0*2,1*5,0"],
        driver: Self.driver)
      #expect(result.status == 3, "\(result.output)\(result.errors)")
      #expect(result.output.contains("the code left the replayed schedule"), "\(result.output)")
    }

    @Test func aMalformedScheduleIsAUsageError() {
      let result = CLI.invoke(
        ["explore", "HandoffCheckedBeforeWaiting", "--schedule", "0*2,,1"], driver: Self.driver)
      #expect(result.status == 64)
      #expect(
        result.errors.contains(
          "invalid value '0*2,,1' for '--schedule' of 'explore': expected a schedule, such as "
            + "0*4,2*5,0 (run 2, '', is not a thread id with an optional *count, such as 0 or 1*3)"),
        "\(result.errors)")
    }

    @Test func exploreOfASpecIsAUsageError() {
      let result = CLI.invoke(["explore", CLI.locked.name], driver: Self.driver)
      #expect(result.status == 64)
      #expect(result.errors.contains("is a spec, not a body to explore: check it with 'run'"))
    }

    @Test func aBodyInStressModeIsAUsageError() {
      let result = CLI.invoke(
        ["run", "HandoffCheckedBeforeWaiting", "--mode", "stress"], driver: Self.driver)
      #expect(result.status == 64)
      #expect(result.errors.contains("runs only in schedule mode"), "\(result.errors)")
    }

    @Test func exploreHasNoShapeOptions() {
      let result = CLI.invoke(
        ["explore", "HandoffCheckedBeforeWaiting", "--threads", "3"], driver: Self.driver)
      #expect(result.status == 64)
      #expect(
        result.errors.contains("unknown option '--threads' for 'explore'"), "\(result.errors)")
    }
  }
}
