import Foundation
import RaceCheckHistory
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RaceCheckTestSuite {
  /// A signal to the command line stops it cleanly, and its worker children never outlive it.
  ///
  /// Each test starts the built `racecheck` executable on a long check of a correct target
  /// and waits until the check's worker child exists, so the signal lands while it runs.
  @Suite struct InterruptionTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func signalPrintsWhatWasFoundAndExitsWithTheSignalsStatus(signal: Int32) throws {
      let run = try RunningCommand(["run", "LockedCounter", "--scenarios", "1000000"])
      _ = try run.waitForWorkerChild()
      kill(run.process.processIdentifier, signal)
      run.process.waitUntilExit()
      #expect(run.process.terminationStatus == 128 + signal)
      let output = run.output()
      #expect(output.contains("LockedCounter is inconclusive: interrupted by"), "\(output)")
      #expect(output.contains("Seed: 0x"), "\(output)")
    }

    @Test func signalStopsAHistoryCheckWithWhatItDecided() throws {
      // Forty overlapping adds of distinct powers of two reach 2^40 states, and the read no
      // state explains makes the search try them all: it runs until it is stopped.
      var operations = (0..<40).map { bit in
        #"{"process": \#(bit), "op": "add", "args": [\#(1 << bit)], "call": 0, "return": 100}"#
      }
      operations.append(
        #"{"process": 40, "op": "get", "args": [], "call": 200, "return": 300, "result": -1}"#)
      let file = URL(fileURLWithPath: FileManagerTemporary.directory)
        .appendingPathComponent("endless-\(UUID().uuidString).json")
      try
        #"{"racecheck": 1, "model": "counter", "operations": [\#(operations.joined(separator: ","))]}"#
        .write(to: file, atomically: true, encoding: .utf8)
      let run = try RunningCommand(["check", file.path], reproDirectory: false)
      try run.waitUntilItWatches(SIGINT)
      kill(run.process.processIdentifier, SIGINT)
      run.process.waitUntilExit()
      #expect(run.process.terminationStatus == 130)
      #expect(run.output().contains("unknown: interrupted by SIGINT with 1 of 1 part undecided"))
    }

    @Test func signalStopsAWorkloadsClientsAndTheHistorySoFarIsKeptAndChecked() throws {
      let folder = try TemporaryDirectory()
      defer { folder.remove() }
      let path = folder.path + "/interrupted.json"
      let run = try RunningCommand(
        ["workload", "cached-store", "--time", "600", "--history", path], reproDirectory: false)
      try run.waitUntilItWatches(SIGINT)
      kill(run.process.processIdentifier, SIGINT)
      run.process.waitUntilExit()
      #expect(run.process.terminationStatus == 130)
      let output = run.output()
      #expect(output.contains("stopped early by SIGINT"), "\(output)")
      #expect(
        output.contains("workload cached-store: linearizable under the kv model"), "\(output)")
      // Every call made before the signal is in the file, which `check` reads alike.
      let history = try RecordedHistory(contentsOf: path)
      #expect(output.contains("\(history.operations.count) calls"), "\(output)")
      #expect(try HistoryChecker().check(history).verdict == .linearizable)
    }

    @Test func workerChildEndsWhenItsParentIsKilled() throws {
      let run = try RunningCommand(["run", "LockedCounter", "--scenarios", "1000000"])
      let child = try run.waitForWorkerChild()
      kill(run.process.processIdentifier, SIGKILL)
      run.process.waitUntilExit()
      // The child polls for its parent ten times a second; the bound here only keeps a broken build from hanging the suite.
      var alive = true
      for _ in 0..<300 where alive {
        alive = RunningCommand.isRunning(child)
        if alive { usleep(100_000) }
      }
      #expect(!alive, "worker \(child) outlived its parent")
    }
  }
}

/// The built `racecheck` executable running a command, its output collected in a file.
private struct RunningCommand {
  let process = Process()
  let outputFile: URL

  init(_ arguments: [String], reproDirectory: Bool = true) throws {
    outputFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("racecheck-interrupt-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    let handle = try FileHandle(forWritingTo: outputFile)
    process.executableURL = URL(fileURLWithPath: try BuildProducts.path(of: "racecheck"))
    process.arguments =
      arguments + (reproDirectory ? ["--repro-dir", FileManagerTemporary.directory] : [])
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
  }

  /// Waits until the command has started its worker child, and returns the child's process id.
  ///
  /// The command runs on a thread beside the main thread, which serves the main queue, so
  /// the child is listed under whichever of the process's threads started it.
  func waitForWorkerChild() throws -> Int32 {
    let pid = process.processIdentifier
    return try Self.poll(orThrow: WorkerNeverStarted()) {
      let threads =
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
      return threads.lazy.compactMap { thread -> Int32? in
        let children =
          (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/children", encoding: .utf8))
          ?? ""
        return children.split(separator: " ").first.flatMap { Int32($0) }
      }.first
    }
  }

  /// Asks `found` every 50 ms, for 30 s at most, until it answers; /proc offers nothing to wait on.
  private static func poll<Found>(orThrow error: some Error, _ found: () -> Found?) throws -> Found
  {
    for _ in 0..<600 {
      if let value = found() { return value }
      usleep(50_000)
    }
    throw error
  }

  struct WorkerNeverStarted: Error {}

  /// Waits until the command has taken `signal` over from its default action, so that sending it now stops the command cleanly.
  ///
  /// Watching a signal ignores its default action and lets libdispatch catch it, which
  /// `/proc` shows in the process's masks of ignored and caught signals.
  func waitUntilItWatches(_ signal: Int32) throws {
    let pid = process.processIdentifier
    let bit = UInt64(1) << UInt64(signal - 1)
    try Self.poll(orThrow: SignalNeverWatched()) { () -> Void? in
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      let masks = status.split(separator: "\n").compactMap { line -> UInt64? in
        guard line.hasPrefix("SigIgn:") || line.hasPrefix("SigCgt:") else { return nil }
        return UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16)
      }
      return masks.contains(where: { $0 & bit != 0 }) ? () : nil
    }
  }

  struct SignalNeverWatched: Error {}

  func output() -> String {
    (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
  }

  /// Whether `pid` is a process that has not ended: a zombie waiting to be reaped has ended.
  static func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state != "Z" && state != "X"
  }
}
