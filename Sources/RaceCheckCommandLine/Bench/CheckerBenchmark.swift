import Foundation
import RaceCheckEngine

#if canImport(Glibc)
  import Glibc
#endif

/// `racecheck bench checker`: times the history checker on every history under a folder, and its peak memory.
///
/// Each file is read once, then checked `runs` times in this process; its time is the
/// median. Peak memory is per file, so it is measured in a child — the running
/// executable started as `check FILE` — whose `ru_maxrss` `wait4` reports (a process's
/// own maximum only grows, so in-process figures would blur the files together).
package struct CheckerBenchmark: Sendable {
  /// One history's figures.
  package struct FileResult: Sendable, Hashable, Codable {
    /// The file's path.
    package var file: String
    /// The folder it is in, relative to the benchmark's folder: `jepsen`, `kv`, ….
    package var category: String
    /// The format it was read in.
    package var format: String
    /// Its operations, or 0 when it was skipped.
    package var operations: Int
    /// `linearizable`, `not-linearizable`, `unknown`, or `skipped: …` with the reason.
    package var verdict: String
    /// The median time of one check (the verdict, without explaining a violation), reading excluded, in milliseconds.
    package var milliseconds: Double
    /// The peak resident memory of a child that reads and checks the file, in megabytes; nil when not measured.
    package var peakMegabytes: Double?
  }

  /// The folder searched for histories.
  package var folder: String
  /// Checks per file; the median is reported.
  package var runs: Int
  /// The executable whose `check` command measures memory in a child; nil to skip memory.
  package var executable: String?
  /// Whether histories are split by key where the model allows (`--no-partitions` when false).
  package var partitions: Bool = true

  /// Creates a benchmark of the histories under `folder`.
  package init(folder: String, runs: Int = 5, executable: String? = nil) {
    self.folder = folder
    self.runs = runs
    self.executable = executable
  }

  /// The history files under the folder with the format of each: `.json` history files, `.log` Jepsen logs, `.txt` and `.edn` EDN.
  package func files() -> [(path: String, format: RecordedHistory.Format)] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
    var found: [(String, RecordedHistory.Format)] = []
    while let relative = enumerator.nextObject() as? String {
      let format: RecordedHistory.Format
      switch (relative as NSString).pathExtension {
      case "json": format = .json
      case "log": format = .jepsenLog
      case "txt", "edn": format = .jepsen
      default: continue
      }
      found.append((folder + "/" + relative, format))
    }
    return found.sorted { $0.0 < $1.0 }
  }

  /// Measures every file, calling `progress` with each result as it comes.
  package func run(progress: (FileResult) -> Void = { _ in }) -> [FileResult] {
    files().map { path, format in
      let result = measure(path, format)
      progress(result)
      return result
    }
  }

  private func measure(_ path: String, _ format: RecordedHistory.Format) -> FileResult {
    let relative = String(path.dropFirst(folder.count + 1))
    let category = relative.split(separator: "/").dropLast().joined(separator: "/")
    var result = FileResult(
      file: path, category: category.isEmpty ? "." : category, format: format.rawValue,
      operations: 0, verdict: "", milliseconds: 0, peakMegabytes: nil)
    let history: RecordedHistory
    do {
      history = try RecordedHistory(contentsOf: path, format: format)
    } catch {
      result.verdict = "skipped: \(error)"
      return result
    }
    result.operations = history.operations.count
    // The verdict alone, as Porcupine's figures are; `check` adds the explanation of a violation.
    let checker = HistoryChecker(partitions: partitions, explains: false)
    var times: [Double] = []
    for _ in 0..<max(1, runs) {
      let started = MonotonicInstant.now()
      guard let verdict = try? checker.check(history) else {
        result.verdict = "skipped: the model rejects it"
        return result
      }
      times.append(started.elapsed.milliseconds)
      result.verdict = verdict.verdict.rawValue
    }
    result.milliseconds = Benchmarks.median(times)
    if let executable {
      result.peakMegabytes = Self.peakMegabytes(
        executable: executable,
        arguments: ["check", path, "--format", format.rawValue]
          + (partitions ? [] : ["--no-partitions"]))
    }
    return result
  }

  /// The peak resident memory of one run of `executable` with `arguments` and `--stats`, in megabytes, or nil if it could not run.
  ///
  /// The child prints its own `VmHWM` (see ``ProcessMemory``); its standard error is read
  /// through a pipe until it closes.
  static func peakMegabytes(executable: String, arguments: [String]) -> Double? {
    let null = open("/dev/null", O_WRONLY)
    guard null >= 0 else { return nil }
    defer { close(null) }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    guard
      let child = try? ChildProcess.spawn(
        executable: executable, arguments: arguments + ["--stats"],
        fileDescriptors: [1: null, 2: ends[1]])
    else {
      close(ends[0])
      close(ends[1])
      return nil
    }
    close(ends[1])
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(ends[0], &buffer, buffer.count)
      if count > 0 {
        output += buffer[..<count]
      } else if count == 0 || errno != EINTR {
        break
      }
    }
    close(ends[0])
    _ = try? child.wait()
    let words = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    guard let position = words.firstIndex(of: "peak-memory-megabytes"), position + 1 < words.count
    else { return nil }
    return Double(words[position + 1])
  }
}
