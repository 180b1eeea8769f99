import Foundation
import Testing

@testable import RaceCheckCommandLine
@testable import RaceCheckEngine

extension RaceCheckTestSuite {
  /// `racecheck replay` runs every repro in an isolated child, so that a racy repro whose scenario now crashes is reported, not fatal.
  @Suite struct IsolatedReplayTests {
    /// A read of index 0 of the empty `NSSafeMutableArray`, which traps every time it runs.
    private static let crashingRead = Scenario(initial: [Scenario.Call("get", [.int(0)])])

    @Test func stressReproOfAWrongResultWhoseReplayCrashesIsReportedWithItsStack() throws {
      let path = try writtenRepro(failure: .nonLinearizable, schedule: nil)
      let replay = try RacecheckProcess.run(["replay", path, "--time", "20"])
      #expect(replay.status == 1, "\(replay.output)\(replay.errors)")
      #expect(replay.output.contains("It crashed (SIGILL: Index out of range)"), "\(replay.output)")
      #expect(
        replay.output.contains("where the run recorded a non-linearizable failure"),
        "\(replay.output)")
      #expect(replay.output.contains("In flight: get(0) on thread 0"), "\(replay.output)")
      #expect(replay.output.contains("NSSafeMutableArray.objectAtIndex"), "\(replay.output)")
    }

    @Test func scheduleReproOfARaceWhoseReplayCrashesIsReportedInItsJSON() throws {
      let path = try writtenRepro(failure: .dataRace, schedule: ScheduleSettings())
      let replay = try RacecheckProcess.run(["replay", path, "--json"])
      #expect(replay.status == 1, "\(replay.output)\(replay.errors)")
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(replay.output.utf8)) as? [String: Any])
      #expect(document["verdict"] as? String == "fail")
      let crash = try #require(document["crash"] as? [String: Any], "\(replay.output)")
      #expect(crash["message"] as? String == "Index out of range", "\(replay.output)")
    }

    @Test func hangOfAReplayedRaceIsReportedWithEveryThreadsStack() {
      let repro = Repro(
        target: "NSSafeMutableArray", seed: 1, scenarioIndex: 0, configuration: Configuration(),
        scenario: Self.crashingRead, diagnosis: nil, failure: .nonLinearizable)
      var report = ReplayReport(
        repro: repro, outcome: .reproduced, invocations: 3, failures: 1, timeLimit: .seconds(30),
        elapsed: .seconds(10))
      report.evidence = .death(
        CrashEvidence(
          kind: .hang, signal: nil, message: nil, runnerThread: nil, threadName: nil,
          invocation: 2,
          inFlight: [
            CrashEvidence.InFlightCall(thread: 0, call: Self.crashingRead.initial[0], index: 0)
          ],
          stack: "", threadStacks: ["Thread 0 (racecheck-0):\n  #0  NSSafeMutableArray.wait()"],
          functions: [], detail: nil, standardError: nil))
      let text = ReplayCommand.describe(report, file: "repro.json").joined(separator: "\n")
      #expect(
        text.hasPrefix(
          "Replayed repro.json: the failure showed again, in 1 of 3 invocations (a failure rate of "
        ),
        "\(text)")
      #expect(
        text.contains("where the run recorded a non-linearizable failure."), "\(text)")
      #expect(
        text.contains("It hung: an invocation made no progress for its deadline, in invocation 3."),
        "\(text)")
      #expect(text.contains("In flight: get(0) on thread 0"), "\(text)")
      #expect(text.contains("#0  NSSafeMutableArray.wait()"), "\(text)")
    }

    /// Writes a repro of `NSSafeMutableArray` that recorded `failure` for ``crashingRead``, and returns its path.
    private func writtenRepro(failure: FailureReport.Kind, schedule: ScheduleSettings?) throws
      -> String
    {
      var configuration = Configuration(seed: 1)
      configuration.scheduleSettings = schedule
      configuration.origin = .program("racecheck")
      let repro = Repro(
        target: "NSSafeMutableArray", seed: 1, scenarioIndex: 0, configuration: configuration,
        scenario: Self.crashingRead, diagnosis: nil, failure: failure)
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("racecheck-replay-\(UUID().uuidString)").path
      return try JSONEncoder().encode(repro).writeNew(in: directory, named: "repro.json")
    }
  }
}

extension Data {
  /// Writes the bytes to a new file `name` in `directory`, creating it, and returns the file's path.
  fileprivate func writeNew(in directory: String, named name: String) throws -> String {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/" + name
    try write(to: URL(fileURLWithPath: path))
    return path
  }
}

/// The built `racecheck` executable run to its end, its standard output and error collected.
enum RacecheckProcess {
  /// What one run printed, and its exit status.
  struct Result {
    var status: Int32
    var output: String
    var errors: String
  }

  /// Runs `racecheck` with `arguments` and waits for it; what it printed on standard error follows its output.
  static func run(_ arguments: [String]) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try BuildProducts.path(of: "racecheck"))
    process.arguments = arguments
    let output = Pipe()
    // Standard error goes to a file, so that neither stream can fill its pipe while the other is read.
    let errorFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("racecheck-stderr-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let complained = (try? Data(contentsOf: errorFile)) ?? Data()
    return Result(
      status: process.terminationStatus,
      output: String(decoding: printed, as: UTF8.self),
      errors: String(decoding: complained, as: UTF8.self))
  }
}
