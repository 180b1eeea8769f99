import Foundation
import RaceCheck
import Testing

// Sharded runs as a CI matrix makes them: each part's --json written to a file, then merged.
// Schedule mode makes every part's result deterministic, so the merged verdict can be
// compared with the unsharded run's row by row.

extension RaceCheckTestSuite {
  @Suite struct ShardingTests {
    @Test func aShardHoldsEveryNthPositionFromItsOwn() throws {
      let parts = try (1...3).map { try #require(Shard(index: $0, count: 3)) }
      for position in 0..<30 {
        #expect(parts.filter { $0.contains(position) }.count == 1)
      }
      #expect((0..<7).filter(parts[1].contains) == [1, 4])
      for range in [0..<0, 0..<7, 2..<11, 5..<6, 4..<4] {
        for part in parts {
          let listed = range.filter(part.contains)
          #expect(Array(part.positions(in: range)) == listed, "\(part) in \(range)")
          #expect(part.count(in: range) == listed.count, "\(part) in \(range)")
        }
      }
      #expect(Shard("2/3") == parts[1])
      #expect(
        Shard("0/3") == nil && Shard("4/3") == nil && Shard("1/0") == nil && Shard("x") == nil)
    }

    @Test(arguments: ["0/3", "4/3", "two/3", "1/3/5", ""])
    func malformedShardsAreRejected(text: String) {
      let result = CLI.invoke(["run", "LockedCounter", "--shard", text])
      #expect(result.status == 64)
      #expect(result.errors.contains("expected K/N, part K of N with 1 ≤ K ≤ N"))
    }

    @Test func demoShardsCoverEveryRowOnceAndMergeToTheUnshardedVerdict() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let demo = [
        "demo", "--mode", "schedule", "--seeds", "1,2,3", "--scenarios", "3",
        "--repro-dir", directory.path, "--json",
      ]
      // The counters' schedule verdicts are their stress ones.
      let driver = CLI.driver(
        targets: CLI.targets.map { target in
          var target = target
          target.scheduleExpectation = target.expectation
          return target
        })
      let whole = CLI.invoke(demo, driver: driver)
      let wholeRows = try #require(whole.jsonObject?["rows"] as? [[String: Any]])
      #expect(wholeRows.count == 9)
      #expect(Set(wholeRows.compactMap { $0["verdict"] as? String }) == ["pass", "fail"])
      var paths: [String] = []
      var seen: [Int] = []
      for part in 1...3 {
        let result = CLI.invoke(demo + ["--shard", "\(part)/3"], driver: driver)
        let rows = try #require(result.jsonObject?["rows"] as? [[String: Any]])
        seen += rows.compactMap { $0["index"] as? Int }
        let path = directory.path + "/demo-\(part).json"
        try result.output.write(toFile: path, atomically: true, encoding: .utf8)
        paths.append(path)
      }
      #expect(seen.sorted() == Array(0..<9))

      let merged = CLI.invoke(["merge", "--json"] + paths.reversed())
      #expect(merged.status == whole.status)
      let mergedRows = try #require(merged.jsonObject?["rows"] as? [[String: Any]])
      func verdicts(_ rows: [[String: Any]]) -> [String] {
        rows.map { row in
          ["index", "target", "seed", "verdict", "diagnosis", "agrees"]
            .map { "\(row[$0] ?? "-")" }.joined(separator: " ")
        }
      }
      #expect(verdicts(mergedRows) == verdicts(wholeRows))
      #expect(merged.jsonObject?["agreed"] as? Int == whole.jsonObject?["agreed"] as? Int)
      #expect(merged.jsonObject?["shard"] is NSNull)
    }

    @Test func aPartOfADemoFailsOnlyOnAWrongRowAndTheMergeJudgesEachTargetWhole() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      // A correct counter said to lose updates, every search cut short: each part holds one seed
      // and cannot know whether the other found the bug; the merge knows that neither did.
      var mislabelled = CLI.locked
      mislabelled.expectation = .fail(.nonAtomicCompoundUpdate)
      let driver = CLI.driver(targets: [mislabelled])
      let paths = try (1...2).map { part in
        let result = CLI.invoke(
          [
            "demo", "--seeds", "1,2", "--invocations", "1000000", "--time", "0.001",
            "--repro-dir", directory.path, "--json", "--shard", "\(part)/2",
          ], driver: driver)
        #expect(result.status == 0, "part \(part): \(result.output)")
        let path = directory.path + "/demo-\(part).json"
        try result.output.write(toFile: path, atomically: true, encoding: .utf8)
        return path
      }
      let merged = CLI.invoke(["merge"] + paths)
      #expect(merged.status == 1, "\(merged.output)")
      #expect(
        merged.outputLines.contains(
          "Not found: LockedCounter: no seed found and named fail: non-atomic-compound-update"),
        "\(merged.output)")
    }

    @Test func runShardsMergeToTheUnshardedRunsFirstFailure() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let run = [
        "run", "RacyCounter", "--mode", "schedule", "--seed", "5", "--scenarios", "9",
        "--no-isolation", "--repro-dir", directory.path, "--json",
      ]
      let whole = CLI.invoke(run)
      #expect(whole.status == 1)
      let paths = try (1...3).map { part in
        let path = directory.path + "/run-\(part).json"
        try CLI.invoke(run + ["--shard", "\(part)/3"]).output.write(
          toFile: path, atomically: true, encoding: .utf8)
        return path
      }
      let merged = CLI.invoke(["merge", "--json"] + paths)
      #expect(merged.status == 1)
      let wholeIndex = try #require(whole.jsonObject?["scenarioIndex"] as? Int)
      #expect(merged.jsonObject?["scenarioIndex"] as? Int == wholeIndex)
      let diagnosis = { (result: CLI.Result) in
        (result.jsonObject?["diagnosis"] as? [String: Any])?["pattern"] as? String
      }
      #expect(diagnosis(merged) == diagnosis(whole))
      let text = CLI.invoke(["merge"] + paths)
      #expect(text.output.contains("in scenario \(wholeIndex) (shard \(wholeIndex % 3 + 1)/3)"))
    }

    @Test func passingRunShardsMergeToAPassOverEveryScenario() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let paths = try (1...2).map { part in
        let path = directory.path + "/run-\(part).json"
        let result = CLI.invoke([
          "run", "LockedCounter", "--mode", "schedule", "--scenarios", "5", "--schedules", "5",
          "--no-isolation", "--json", "--shard", "\(part)/2",
        ])
        #expect(result.status == 0)
        try result.output.write(toFile: path, atomically: true, encoding: .utf8)
        return path
      }
      let merged = CLI.invoke(["merge"] + paths)
      #expect(merged.status == 0)
      #expect(
        merged.output.hasPrefix("racecheck: LockedCounter passed: 5 of 5 scenarios in 2 shards"))
    }

    @Test func mergeRefusesPartsThatDoNotCoverOneRunExactlyOnce() throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      func part(_ arguments: [String], _ name: String) throws -> String {
        let path = directory.path + "/" + name
        try CLI.invoke(
          arguments + ["--mode", "schedule", "--scenarios", "2", "--schedules", "2", "--json"]
        ).output.write(toFile: path, atomically: true, encoding: .utf8)
        return path
      }
      let first = try part(["run", "LockedCounter", "--no-isolation", "--shard", "1/2"], "1.json")
      let second = try part(["run", "LockedCounter", "--no-isolation", "--shard", "2/2"], "2.json")
      let whole = try part(["run", "LockedCounter", "--no-isolation"], "whole.json")
      let other = try part(
        ["run", "RacyCounter", "--no-isolation", "--shard", "2/2"], "other.json")
      let demo = try part(["demo", "--shard", "2/2", "--seeds", "1"], "demo.json")
      let garbage = directory.path + "/garbage.json"
      try "{\"rows\": 3}".write(toFile: garbage, atomically: true, encoding: .utf8)
      let cases: [([String], String)] = [
        ([first], "shard 2/2 is missing"),
        ([first, second, first], "shard 1/2 is given twice"),
        ([first, whole], "whole.json: not one part of a sharded run (it ran without --shard)"),
        ([first, other], "the parts are not of one run"),
        ([first, demo], "the files mix the output of 'run' and of 'demo'"),
        ([first, garbage], "garbage.json: not the --json output of 'run' or 'demo'"),
        ([first, directory.path + "/absent.json"], "absent.json: cannot read the file"),
      ]
      for (files, message) in cases {
        let result = CLI.invoke(["merge"] + files)
        #expect(result.status == 65, "\(message)")
        #expect(result.errors.contains(message), "\(result.errors)")
      }
      #expect(CLI.invoke(["merge"]).status == 64)
    }
  }
}
