import Fixtures
import Foundation
import RaceCheck
import Testing

// The command line as a user meets it: each test runs one command line through
// `CommandLineDriver.run` over a few tiny counters defined below, and checks the exit status
// and what was printed on standard output and standard error. Budgets are tiny so that the
// suite runs in seconds in a debug build.

extension RaceCheckTestSuite {
  @Suite struct CommandLineDriverTests {
    // MARK: Bad usage exits 64 with one line and a pointer to the help

    @Test func noArgumentsPrintUsageOnStandardError() {
      let result = CLI.invoke([])
      #expect(result.status == 64)
      #expect(result.output.isEmpty)
      #expect(result.errors.contains("USAGE: racecheck <command>"))
    }

    @Test func unknownCommandIsNamedWithTheClosestCommand() {
      let result = CLI.invoke(["rn"])
      #expect(result.status == 64)
      #expect(
        result.errorLines == [
          "racecheck: unknown command 'rn' (did you mean 'run'?)",
          "Run 'racecheck --help' for usage.",
        ])
    }

    @Test func unknownOptionIsNamedWithItsCommandAndTheClosestOption() {
      let result = CLI.invoke(["run", "LockedCounter", "--thread", "3"])
      #expect(result.status == 64)
      #expect(
        result.errorLines == [
          "racecheck: unknown option '--thread' for 'run' (did you mean '--threads'?)",
          "Run 'racecheck run --help' for usage.",
        ])
    }

    @Test func unknownTargetListsTheKnownTargets() {
      let result = CLI.invoke(["run", "LockedCountr"])
      #expect(result.status == 64)
      #expect(
        result.errorLines.first
          == "racecheck: unknown target 'LockedCountr' (did you mean 'LockedCounter'?); the targets are "
          + "LockedCounter, RacyCounter, StuckCounter, ThrowingCounter")
      #expect(result.errorLines.last == "Run 'racecheck list' to see the targets.")
    }

    @Test func malformedSeedIsRejected() {
      let result = CLI.invoke(["run", "LockedCounter", "--seed", "0xZZ"])
      #expect(result.status == 64)
      #expect(
        result.errorLines.first
          == "racecheck: invalid value '0xZZ' for '--seed' of 'run': expected a 64-bit seed in decimal or 0x… hexadecimal"
      )
    }

    @Test(arguments: [
      ("--threads", "0"), ("--ops", "0"), ("--init", "-1"), ("--post", "x"), ("--scenarios", "0"),
      ("--invocations", "1.5"), ("--time", "0"), ("--time", "inf"),
    ])
    func outOfRangeValueIsRejected(option: String, value: String) {
      let result = CLI.invoke(["run", "LockedCounter", option, value])
      #expect(result.status == 64)
      #expect(
        result.errorLines.first?.hasPrefix(
          "racecheck: invalid value '\(value)' for '\(option)' of 'run'") == true)
    }

    @Test func optionWithoutItsValueIsRejected() {
      let result = CLI.invoke(["run", "LockedCounter", "--seed", "--json"])
      #expect(result.status == 64)
      #expect(
        result.errorLines.first == "racecheck: option '--seed' of 'run' needs a value: --seed S")
    }

    @Test func missingTargetIsRejected() {
      let result = CLI.invoke(["run"])
      #expect(result.status == 64)
      #expect(result.errorLines.first == "racecheck: 'run' needs a <target>")
    }

    // MARK: run

    @Test func runOfACorrectCounterPassesAndStatesWhatItExplored() {
      // One thread: every invocation counts, so the pass does not depend on the machine's load.
      let result = CLI.invoke([
        "run", "LockedCounter", "--threads", "1", "--scenarios", "3", "--invocations", "50",
      ])
      #expect(result.status == 0)
      #expect(
        result.output.hasPrefix(
          "racecheck: LockedCounter passed: 3 of 3 scenarios, 150 invocations of which 150 ran their "
            + "threads at the same time, "),
        "\(result.output)")
      #expect(result.output.contains("distinct outcomes; the chance that one more of a scenario's"))
      #expect(result.output.contains("(Good–Turing) is "))
      #expect(result.output.contains("at most, no failure"))
    }

    @Test func runCutShortByItsTimeLimitIsInconclusiveWithItsOwnStatus() {
      let result = CLI.invoke([
        "run", "LockedCounter", "--threads", "1", "--scenarios", "100000000", "--time", "0.2",
      ])
      #expect(result.status == 3)
      #expect(
        result.output.hasPrefix(
          "racecheck: LockedCounter is inconclusive: the time limit ended the search after "),
        "\(result.output)")
      #expect(result.output.contains("so this is not a pass"))
    }

    @Test func runJSONOfAnInconclusiveCheckSaysSoAndWhy() throws {
      let result = CLI.invoke([
        "run", "LockedCounter", "--threads", "1", "--scenarios", "100000000", "--time", "0.2",
        "--json",
      ])
      #expect(result.status == 3)
      let document = try #require(result.jsonObject)
      #expect(document["verdict"] as? String == "inconclusive")
      let reason = try #require(document["inconclusive"] as? String)
      #expect(reason.hasPrefix("the time limit ended the search after "))
      let search = try #require(document["search"] as? [String: Any])
      #expect(search["plannedScenarios"] as? Int == 100_000_000)
    }

    @Test func threadsAboveTheMaximumAreAUsageError() {
      let result = CLI.invoke(["run", "LockedCounter", "--threads", "65"])
      #expect(result.status == 64)
      #expect(
        result.errorLines.first
          == "racecheck: invalid value '65' for '--threads' of 'run': expected an integer from 1 to 64"
      )
    }

    @Test func aStrategyAloneChoosesScheduleMode() {
      let result = CLI.invoke(
        [
          "run", "LockedCounter", "--strategy", "dpor", "--ops", "1", "--scenarios", "1",
          "--no-isolation",
        ])
      #expect(result.status == 0, "\(result.output)\(result.errors)")
      #expect(result.output.contains("every interleaving of each explored"), "\(result.output)")
    }

    @Test func aStrategyInStressModeIsAUsageError() {
      let result = CLI.invoke(["run", "LockedCounter", "--mode", "stress", "--strategy", "dpor"])
      #expect(result.status == 64)
      #expect(
        result.errorLines.first
          == "racecheck: options '--mode stress' and '--strategy' of 'run' cannot be used together"
      )
    }

    @Test func runOfASequentiallyBuggyCounterFailsWithTheReport() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let result = CLI.invoke(
        [
          "run", "StuckCounter", "--scenarios", "3", "--invocations", "50", "--repro-dir",
          directory.path,
        ])
      #expect(result.status == 1)
      #expect(result.output.hasPrefix("racecheck: StuckCounter is not linearizable"))
      #expect(result.output.contains("Replay: racecheck run StuckCounter --seed 0x"))
    }

    @Test func replayCommandNamesTheSeedAndEveryNonDefaultSetting() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let result = CLI.invoke([
        "run", "StuckCounter", "--seed", "42", "--threads", "3", "--scenarios", "3",
        "--invocations",
        "50",
        "--no-minimize", "--repro-dir", directory.path, "--json",
      ])
      let document = try #require(result.jsonObject)
      #expect(
        document["replayCommand"] as? String
          == "racecheck run StuckCounter --seed 0x000000000000002A --threads 3 --scenarios 3 --invocations 50 "
          + "--no-minimize --repro-dir \(directory.path)")
    }

    @Test func throwingOperationIsReportedAsABrokenSpec() {
      let result = CLI.invoke(["run", "ThrowingCounter", "--scenarios", "1", "--invocations", "5"])
      #expect(result.status == 78)
      #expect(result.errors.hasPrefix("racecheck: ThrowingCounter: the spec is broken:"))
    }

    @Test func scheduleRunJSONCarriesTheTraceAndItsReproReplaysIt() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let driver = CLI.driver(targets: Catalogue.withModeExpectations(Catalogue.targets))
      let run = CLI.invoke(
        [
          "run", "AtomicCounter", "--mode", "schedule", "--seed", "1", "--repro-dir",
          directory.path, "--json",
        ], driver: driver)
      #expect(run.status == 1)
      let document = try #require(run.jsonObject)
      let trace = try #require(document["trace"] as? [String: Any])
      #expect(Set(trace.keys) == ["threadNames", "steps", "schedule", "preemptionSteps"])
      let schedule = try #require(trace["schedule"] as? [Int])
      let path = try #require(document["reproPath"] as? String)
      let replay = CLI.invoke(["replay", path, "--json"], driver: driver)
      #expect(replay.status == 1)
      let replayed = try #require(replay.jsonObject)
      #expect(replayed["divergence"] is NSNull)
      #expect((replayed["trace"] as? [String: Any])?["schedule"] as? [Int] == schedule)
    }

    @Test func runJSONIsOneDocumentWithTheDocumentedKeys() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let result = CLI.invoke([
        "run", "StuckCounter", "--scenarios", "3", "--invocations", "50", "--repro-dir",
        directory.path, "--json",
      ])
      #expect(result.status == 1)
      #expect(result.outputLines.count == 1)
      let document = try #require(result.jsonObject)
      #expect(
        Set(document.keys) == [
          "target", "verdict", "inconclusive", "seed", "search", "scenarios", "invocations",
          "seconds", "secondsToFind", "secondsShrinking", "interruptedBy", "failure", "diagnosis",
          "failedExpectations", "scenario", "crash", "trace",
          "reproPath", "failedInvocations", "replayCommand", "specError", "originalScenario",
          "shrinkSteps", "shrinkingCutShort", "shard", "scenarioIndex", "internalFault",
        ])
      #expect(document["verdict"] as? String == "fail")
      #expect(document["internalFault"] is NSNull)
      #expect(document["failure"] as? String == "non-linearizable")
      #expect(document["crash"] is NSNull)
      #expect(document["trace"] is NSNull)
      #expect(document["specError"] is NSNull)
      #expect((document["diagnosis"] as? [String: Any])?.keys.sorted() == ["evidence", "pattern"])
    }

    // MARK: The program's own name

    @Test func programNamedCheckMyTypesPrintsReplayLinesThatBeginWithItsName() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let result = CLI.invoke(
        [
          "run", "StuckCounter", "--scenarios", "3", "--invocations", "50", "--repro-dir",
          directory.path,
        ], driver: CLI.driver(programName: "check-my-types"))
      #expect(result.status == 1)
      let replay = try #require(result.outputLines.first { $0.hasPrefix("Replay: ") })
      #expect(replay.hasPrefix("Replay: check-my-types run StuckCounter --seed 0x"), "\(replay)")
      let repro = try #require(result.outputLines.first { $0.hasPrefix("Repro file: ") })
      #expect(repro.hasSuffix(".stress.program-check-my-types.json)"), "\(repro)")
      #expect(
        repro.contains("  (check-my-types replay \(directory.path)/StuckCounter-0x"), "\(repro)")
      #expect(!result.output.contains("racecheck run"), "\(result.output)")
    }

    @Test func demoOfAProgramNamedCheckMyTypesFollowsEachDisagreementWithItsRunCommand() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      var mislabelled = CLI.stuck
      mislabelled.expectation = .pass
      let result = CLI.invoke(
        ["demo", "--scenarios", "3", "--invocations", "20", "--repro-dir", directory.path],
        driver: CLI.driver(targets: [CLI.locked, mislabelled], programName: "check-my-types"))
      #expect(result.status == 1)
      let disagreement = try #require(
        result.outputLines.firstIndex { $0.hasPrefix("Disagrees: StuckCounter") })
      let replay = result.outputLines[disagreement + 1]
      // The demo's own budgets differ from run's defaults, so the command names them.
      #expect(
        replay.hasPrefix(
          "  Replay: check-my-types run StuckCounter --seed 0x0000000000000001 --scenarios 3 "
            + "--invocations 20"),
        "\(result.output)")
      #expect(replay.hasSuffix("--shrink-time 3 --repro-dir \(directory.path)"), "\(replay)")
    }

    @Test func demoWithTargetsChecksOnlyTheNamedRows() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      var mislabelled = CLI.stuck
      mislabelled.expectation = .pass
      // The mislabelled row would disagree: left out, every row checked agrees.
      let result = CLI.invoke(
        [
          "demo", "--targets", CLI.locked.name, "--seeds", "1,2", "--scenarios", "3",
          "--invocations", "20", "--repro-dir", directory.path,
        ],
        driver: CLI.driver(targets: [CLI.locked, mislabelled]))
      #expect(result.status == 0, "\(result.output)")
      let rows = result.outputLines.filter { $0.hasPrefix(CLI.locked.name) }
      #expect(rows.count == 2, "\(result.output)")
      #expect(!result.output.contains("StuckCounter"), "\(result.output)")
    }

    @Test func demoWithAnUnknownTargetSaysWhichAndExits64() {
      let result = CLI.invoke(
        ["demo", "--targets", "\(CLI.locked.name),LockedCountr"],
        driver: CLI.driver(targets: [CLI.locked]))
      #expect(result.status == 64)
      #expect(
        result.errorLines.first?.hasPrefix("racecheck: unknown target 'LockedCountr'") == true,
        "\(result.errorLines)")
    }

    @Test func programNamedCheckMyTypesNamesItselfInHelpAndHints() {
      let driver = CLI.driver(programName: "check-my-types")
      #expect(
        CLI.invoke(["--help"], driver: driver).output.contains("USAGE: check-my-types <command>"))
      #expect(
        CLI.invoke(["rn"], driver: driver).errorLines == [
          "check-my-types: unknown command 'rn' (did you mean 'run'?)",
          "Run 'check-my-types --help' for usage.",
        ])
    }

    @Test func driverNamesTheRunningExecutableUnlessToldOtherwise() {
      let executable = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
      // The test binary is not named racecheck, so a default left at "racecheck" shows here.
      #expect(executable != "racecheck")
      #expect(CommandLineDriver.runningProgramName == executable)
      #expect(CommandLineDriver(targets: []).programName == executable)
    }

    // MARK: replay

    @Test func replayOfAMissingFileIsADataError() {
      let result = CLI.invoke(["replay", "/nonexistent/repro.json"])
      #expect(result.status == 65)
      #expect(result.errorLines == ["racecheck: /nonexistent/repro.json: no such repro file"])
    }

    @Test func replayOfATruncatedFileIsADataError() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let data = try CLI.encodedRepro(target: "StuckCounter")
      let path = directory.path + "/truncated.json"
      try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
      let result = CLI.invoke(["replay", path])
      #expect(result.status == 65)
      #expect(
        result.errorLines == [
          "racecheck: \(path): not a valid repro file: the file is not valid JSON (truncated or corrupted)"
        ])
    }

    @Test func replayOfAReproForAnotherProgramsTargetIsADataError() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let path = directory.path + "/elsewhere.json"
      try CLI.encodedRepro(target: "Elsewhere").write(to: URL(fileURLWithPath: path))
      let result = CLI.invoke(["replay", path])
      #expect(result.status == 65)
      #expect(
        result.errorLines == [
          "racecheck: \(path): recorded for target 'Elsewhere', which this program does not know"
        ])
    }

    @Test func replayOfATestsReproPrintsTheTestAndTheCommandThatReplaysIt() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let path = directory.path + "/from-a-test.json"
      let command = #"swift test --filter '^MyTests\.CacheTests/testHit$'"#
      try CLI.encodedRepro(
        target: "Cache", scenarioIndex: 4,
        origin: .test(id: "MyTests.CacheTests/testHit", command: command)
      ).write(to: URL(fileURLWithPath: path))
      let result = CLI.invoke(["replay", path])
      #expect(result.status == 65)
      #expect(
        result.errorLines == [
          "racecheck: \(path): recorded by the test MyTests.CacheTests/testHit for target 'Cache', "
            + "which this program does not know; the test replays it: "
            + "RACECHECK_SEED=0x0000000000000001 RACECHECK_SCENARIO=4 \(command)"
        ])
    }

    @Test func replayOfAnotherProgramsReproNamesThatProgram() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let path = directory.path + "/from-a-program.json"
      try CLI.encodedRepro(target: "Cache", origin: .program("check-my-types"))
        .write(to: URL(fileURLWithPath: path))
      let result = CLI.invoke(["replay", path])
      #expect(result.status == 65)
      #expect(
        result.errorLines == [
          "racecheck: \(path): recorded by check-my-types for target 'Cache', which this program "
            + "does not know; 'check-my-types replay' replays it"
        ])
    }

    @Test func replayOfAReproWrittenByRunReproducesItAndMeasuresTheRate() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let run = CLI.invoke([
        "run", "StuckCounter", "--scenarios", "3", "--invocations", "50", "--repro-dir",
        directory.path, "--json",
      ])
      let path = try #require(run.jsonObject?["reproPath"] as? String)
      let result = CLI.invoke(["replay", path])
      #expect(result.status == 1)
      // The counter stops at 2 on every run: the first round reproduces it in every invocation.
      let first = try #require(result.outputLines.first)
      #expect(first.hasPrefix("Replayed \(path): the failure showed again, in "), "\(first)")
      #expect(first.contains("(a failure rate of 100%)"), "\(first)")
    }

    @Test func replayThatDoesNotReproduceIsInconclusiveNotSuccess() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      // A correct counter's increment then get: the "failure" can never show again.
      let path = directory.path + "/passing.json"
      try CLI.encodedRepro(target: "LockedCounter").write(to: URL(fileURLWithPath: path))
      let result = CLI.invoke(["replay", path, "--time", "0.2"])
      #expect(result.status == 3)
      #expect(
        result.outputLines.first?.hasPrefix("Replayed \(path): inconclusive: the failure") == true,
        "\(result.output)")
    }

    // MARK: demo

    @Test func demoJSONHasARowPerTargetWithTheDocumentedKeys() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let result = CLI.invoke([
        "demo", "--scenarios", "2", "--invocations", "20", "--repro-dir", directory.path, "--json",
      ])
      let document = try #require(result.jsonObject)
      #expect(Set(document.keys) == ["rows", "targets", "agreed", "total", "seconds", "shard"])
      let rows = try #require(document["rows"] as? [[String: Any]])
      #expect(
        rows.map { $0["target"] as? String } == ["LockedCounter", "RacyCounter", "StuckCounter"])
      for row in rows {
        #expect(
          Set(row.keys).isSuperset(of: [
            "index", "target", "expected", "verdict", "expectedDiagnosis", "diagnosis", "agrees",
            "judgement", "reason", "seconds", "seed", "minimizedOperations",
          ]))
      }
      let targets = try #require(document["targets"] as? [[String: Any]])
      #expect(targets.map { $0["target"] as? String } == rows.map { $0["target"] as? String })
      // StuckCounter fails in every run (RacyCounter's lost update needs its interleaving,
      // which 40 invocations may miss): its row says how many calls its minimized scenario kept.
      let stuck = try #require(rows.first { $0["target"] as? String == "StuckCounter" })
      let kept = try #require(stuck["minimizedOperations"] as? Int)
      #expect((1...20).contains(kept))
      let locked = try #require(rows.first { $0["target"] as? String == "LockedCounter" })
      #expect(locked["minimizedOperations"] is NSNull)
      #expect(document["total"] as? Int == 3)
    }

    @Test func demoTalliesTargetsThatMeetTheirExpectations() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let driver = CLI.driver(targets: [CLI.locked, CLI.stuck])
      let result = CLI.invoke(
        ["demo", "--scenarios", "3", "--invocations", "20", "--repro-dir", directory.path],
        driver: driver)
      #expect(result.status == 0)
      #expect(
        result.outputLines.last?.hasPrefix("2 of 2 targets agree with the catalogue (") == true)
    }

    @Test func demoFailsWhenATargetMissesItsExpectation() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      var mislabelled = CLI.stuck
      mislabelled.expectation = .pass
      let driver = CLI.driver(targets: [CLI.locked, mislabelled])
      let result = CLI.invoke(
        ["demo", "--scenarios", "3", "--invocations", "20", "--repro-dir", directory.path],
        driver: driver)
      #expect(result.status == 1)
      #expect(result.output.contains("1 of 2 targets agree with the catalogue"))
    }

    @Test func demoOverSeedsFailsWhenABugIsFoundOnNoneAndPrintsEachUnsettledRun() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      // A correct counter said to lose updates, and a millisecond for a million invocations:
      // every search is cut short, so no seed is wrong and none finds the bug.
      var mislabelled = CLI.locked
      mislabelled.expectation = .fail(.nonAtomicCompoundUpdate)
      let result = CLI.invoke(
        [
          "demo", "--seeds", "1,2", "--invocations", "1000000", "--time", "0.001",
          "--repro-dir", directory.path,
        ], driver: CLI.driver(targets: [mislabelled]))
      #expect(result.status == 1, "\(result.output)")
      #expect(
        result.outputLines.filter { $0.hasPrefix("Unsettled: LockedCounter with seed 0x") }.count
          == 2, "\(result.output)")
      #expect(
        result.outputLines.contains(
          "Not found: LockedCounter: no seed found and named fail: non-atomic-compound-update"),
        "\(result.output)")
      #expect(!result.output.contains("Disagrees:"), "\(result.output)")
    }

    @Test func demoOfACorrectTargetCutShortOnEverySeedExitsInconclusive() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let result = CLI.invoke(
        [
          "demo", "--seeds", "1,2", "--invocations", "1000000", "--time", "0.001",
          "--repro-dir", directory.path, "--json",
        ], driver: CLI.driver(targets: [CLI.locked]))
      #expect(result.status == 3, "\(result.output)")
      let document = try #require(result.jsonObject)
      let targets = try #require(document["targets"] as? [[String: Any]])
      #expect(targets.first?["judgement"] as? String == "unsettled")
      let rows = try #require(document["rows"] as? [[String: Any]])
      #expect(rows.allSatisfy { $0["judgement"] as? String == "unsettled" })
      #expect(document["agreed"] as? Int == 0)
    }

    @Test func demoInScheduleModeComparesWithTheExpectationWhenNoneIsGivenForTheMode() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let driver = CLI.driver(targets: [CLI.locked, CLI.stuck])
      let result = CLI.invoke(
        [
          "demo", "--mode", "schedule", "--scenarios", "3", "--schedules", "10", "--repro-dir",
          directory.path,
        ], driver: driver)
      #expect(result.status == 0, "\(result.output)")
      #expect(
        result.outputLines.last?.hasPrefix("2 of 2 targets agree with the catalogue (") == true,
        "\(result.output)")
    }

    @Test func demoOfTargetsWithoutExpectationsIsAUsageErrorNotAnAgreement() {
      var unlabelled = CLI.locked
      unlabelled.expectation = nil
      let result = CLI.invoke(["demo"], driver: CLI.driver(targets: [unlabelled]))
      #expect(result.status == 64)
      #expect(
        result.errorLines.first?.hasPrefix(
          "racecheck: 'demo' compares targets with their expected verdicts, and no target") == true,
        "\(result.errorLines)")
    }

    // MARK: list, bench, help, version

    @Test func listShowsEachTargetWithItsExpectationAndSummary() {
      let result = CLI.invoke(["list"])
      #expect(result.status == 0)
      let rows = result.outputLines.map {
        $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
      }
      #expect(rows.contains("LockedCounter pass one lock around every access"))
      #expect(
        rows.contains(
          "RacyCounter fail: non-atomic-compound-update count = count + 1 through a locked getter and setter"
        ))
      #expect(rows.contains("ThrowingCounter — get throws"))
    }

    @Test func benchWithoutAPlanIsBadUsage() {
      let result = CLI.invoke(["bench"])
      #expect(result.status == 64)
      #expect(
        result.errorLines.first
          == "racecheck: 'bench' needs a benchmark plan, and this program was given none")
    }

    @Test func benchCheckerWithoutAFolderIsBadUsage() {
      let result = CLI.invoke(["bench", "checker"])
      #expect(result.status == 64)
      #expect(
        result.errorLines == [
          "racecheck: 'bench checker' needs a <folder>",
          "Run 'racecheck bench checker --help' for usage.",
        ])
    }

    @Test func benchJSONIsExactlyTheResults() throws {
      let plan = BenchmarkPlan(
        throughputTarget: "LockedCounter", firstFailureTargets: [], seeds: [])
      let driver = CLI.driver(benchmarks: plan)
      let result = CLI.invoke(["bench", "--seconds", "0.05", "--json"], driver: driver)
      #expect(result.status == 0)
      let document = try #require(result.jsonObject)
      #expect(Array(document.keys) == ["results"])
      let results = try #require(document["results"] as? [[String: Any]])
      // Stress checked, bare, and their ratio.
      #expect(results.count == 3)
      #expect(results.allSatisfy { Set($0.keys) == ["name", "value", "unit"] })
    }

    @Test func benchRecorderJSONHasEveryFigureForOneAndTwoThreadsAndTheClock() throws {
      let result = CLI.invoke([
        "bench", "recorder", "--operations", "2000", "--runs", "1", "--json",
      ])
      #expect(result.status == 0)
      let document = try #require(result.jsonObject)
      #expect(Array(document.keys) == ["results"])
      let results = try #require(document["results"] as? [[String: Any]])
      let names = results.compactMap { $0["name"] as? String }
      var expected: [String] = []
      for threads in ["1-thread", "2-threads"] {
        for figure in [
          "recorder-caller-ns-per-operation", "recorder-caller-wall-ns-per-operation",
          "recorder-total-ns-per-operation", "recorder-operations-per-second",
        ] {
          expected.append("\(figure)/\(threads)")
        }
      }
      expected.append("recorder-clock-ns-per-reading")
      #expect(names == expected)
      #expect(results.allSatisfy { ($0["value"] as? Double).map { $0 > 0 } == true })
      #expect(results.allSatisfy { Set($0.keys) == ["name", "value", "unit"] })
    }

    @Test func benchJSONWritesAFigureThatIsNotFiniteAsNull() throws {
      // With no seeds, no first failure is timed and the median is infinite.
      let plan = BenchmarkPlan(
        throughputTarget: "LockedCounter", firstFailureTargets: ["StuckCounter"], seeds: [])
      let driver = CLI.driver(benchmarks: plan)
      let result = CLI.invoke(["bench", "--seconds", "0.05", "--json"], driver: driver)
      #expect(result.status == 0)
      let results = try #require(result.jsonObject?["results"] as? [[String: Any]])
      let median = try #require(
        results.first { $0["name"] as? String == "first-failure-median-ms/StuckCounter" })
      #expect(median["value"] is NSNull)
    }

    @Test func benchPlanNamingAnUnknownTargetIsAnInternalError() {
      let plan = BenchmarkPlan(throughputTarget: "Nowhere", firstFailureTargets: [])
      let result = CLI.invoke(
        ["bench"], driver: CLI.driver(benchmarks: plan))
      #expect(result.status == 70)
    }

    @Test(arguments: CommandLineDriver.commands.map(\.name))
    func helpOfEveryCommandListsEveryOptionInItsTable(command: String) throws {
      let result = CLI.invoke([command, "--help"])
      #expect(result.status == 0)
      let spec = try #require(CommandLineDriver.command(named: command))
      for option in spec.options {
        #expect(
          result.output.contains(option.name), "\(command) --help does not mention \(option.name)")
      }
      #expect(result.output.contains("-h, --help"))
    }

    @Test func helpCommandShowsTheSameHelpAsTheHelpOption() {
      #expect(CLI.invoke(["help", "run"]).output == CLI.invoke(["run", "-h"]).output)
    }

    @Test func programHelpListsEveryCommand() {
      let result = CLI.invoke(["--help"])
      #expect(result.status == 0)
      for command in CommandLineDriver.commands {
        #expect(result.outputLines.contains { $0.hasPrefix("  \(command.name) ") })
      }
    }

    @Test func versionIsPrinted() {
      let result = CLI.invoke(["--version"])
      #expect(result.status == 0)
      #expect(result.outputLines == ["racecheck 0.1.0"])
    }
  }
}

// MARK: - Subjects, targets and helpers

/// The counters the command line is run over, and a way to run it and capture what it prints.
enum CLI {
  /// A counter with one lock around every access: linearizable.
  final class Locked: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func increment() { lock.withLock { value += 1 } }
  }

  /// A counter whose getter and setter are each locked, so `count = count + 1` can lose an update.
  final class Racy: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int {
      get { lock.withLock { value } }
      set { lock.withLock { value = newValue } }
    }
    func increment() { count = count + 1 }
  }

  /// A counter that stops at 2: wrong even on one thread, so every check finds it.
  final class Stuck: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func increment() { lock.withLock { value = min(value + 1, 2) } }
  }

  struct GetFailed: Error {}

  static let locked = Target(
    Spec("LockedCounter", make: Locked.init, model: CounterModel()) {
      Operation("get") { (counter: Locked) in counter.count }
      Operation("increment") { (counter: Locked) in counter.increment() }
    }, summary: "one lock around every access", expectation: .pass)

  static let racy = Target(
    Spec("RacyCounter", make: Racy.init, model: CounterModel()) {
      Operation("get") { (counter: Racy) in counter.count }
      Operation("increment") { (counter: Racy) in counter.increment() }
    }, summary: "count = count + 1 through a locked getter and setter",
    expectation: .fail(.nonAtomicCompoundUpdate))

  static let stuck = Target(
    Spec("StuckCounter", make: Stuck.init, model: CounterModel()) {
      Operation("get") { (counter: Stuck) in counter.count }
      Operation("increment") { (counter: Stuck) in counter.increment() }
    }, summary: "stops counting at 2", expectation: .fail(.unclassified))

  static let throwing = Target(
    Spec("ThrowingCounter", make: Locked.init, model: CounterModel()) {
      Operation("get") { (_: Locked) throws -> Int in throw GetFailed() }
      Operation("increment") { (counter: Locked) in counter.increment() }
    }, summary: "get throws")

  static let targets = [locked, racy, stuck, throwing]

  /// What one command line printed, and its exit status.
  struct Result {
    var status: Int32
    var outputLines: [String]
    var errorLines: [String]

    var output: String { outputLines.joined(separator: "\n") }
    var errors: String { errorLines.joined(separator: "\n") }

    /// The output parsed as one JSON object, or nil when it is not one.
    var jsonObject: [String: Any]? {
      (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any]
    }
  }

  /// Collects lines from the driver's output sinks.
  final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ text: String) {
      // A sink receives whole lines, but one call may hold several (a report, a table).
      lock.withLock {
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      }
    }

    var all: [String] { lock.withLock { lines } }
  }

  /// A driver named `racecheck` whatever runs the tests, as the texts these tests expect name it.
  static func driver(
    targets: [Target] = targets, programName: String = "racecheck",
    benchmarks: BenchmarkPlan? = nil
  ) -> CommandLineDriver {
    CommandLineDriver(targets: targets, programName: programName, benchmarks: benchmarks)
  }

  static func invoke(_ arguments: [String], driver: CommandLineDriver = driver()) -> Result {
    let output = Lines()
    let errors = Lines()
    let status = driver.run(
      arguments, output: CommandOutput { output.append($0) },
      errors: CommandOutput { errors.append($0) })
    return Result(status: status, outputLines: output.all, errorLines: errors.all)
  }

  /// A valid repro file's bytes for a counter scenario recorded for `target`, by `origin`.
  static func encodedRepro(
    target: String, scenarioIndex: Int = 0, origin: Configuration.Origin? = nil
  ) throws -> Data {
    var configuration = Configuration()
    configuration.origin = origin
    let repro = Repro(
      target: target, seed: 1, scenarioIndex: scenarioIndex, configuration: configuration,
      scenario: Scenario(initial: [Scenario.Call("increment"), Scenario.Call("get")]),
      diagnosis: nil)
    return try JSONEncoder().encode(repro)
  }
}

/// A fresh folder under the system's temporary directory, for repro files.
struct TemporaryDirectory {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory.appendingPathComponent(
        "racecheck-cli-\(UUID().uuidString)"
      ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}
