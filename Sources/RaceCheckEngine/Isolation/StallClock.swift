#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How long a child has gone without progress, counting only the time its threads were not kept from a CPU.
///
/// A wall clock cannot tell a hung child from a starved one: on a busy machine a thread
/// that is ready to run may wait seconds for a CPU, and every thread waiting for it waits
/// too. The kernel counts, per thread, the time it ran and the time it spent ready but not
/// running (`/proc/PID/task/TID/schedstat`), though the second only once the thread gets a
/// CPU again: a thread that is ready now (state `R` in its `stat`) has waited for all of the
/// interval it did not run. Of each interval between samples, the clock counts the part that
/// the child's most delayed thread did not spend waiting: a deadlocked child (every thread
/// asleep) counts the whole interval, a spinning one the time it ran, a starved one only what
/// the machine gave it. Where the kernel does not keep these counts the clock counts wall
/// time, as a plain watchdog does.
struct StallClock {
  /// What the clock saw since the child last made progress.
  struct Reading: Hashable, Sendable {
    /// The wall time since the last progress.
    var wall: Duration = .zero
    /// The part of it that counts towards a hang: the time the child was not kept from a CPU.
    var stalled: Duration = .zero
    /// The CPU time the child's threads used since the last progress, all threads together.
    var cpu: Duration = .zero
  }

  private let process: pid_t
  /// Each thread's counts at the last sample, by thread id.
  private var lastCounts: [pid_t: ThreadCounts] = [:]
  private var lastSample: MonotonicInstant
  /// What the clock saw since the last progress.
  private(set) var reading = Reading()

  /// Starts a clock for the child `process`.
  init(process: pid_t, at start: MonotonicInstant = .now()) {
    self.process = process
    lastSample = start
    lastCounts = Self.counts(of: process) ?? [:]
  }

  /// The child made progress: the clock starts again from zero.
  mutating func restart() {
    advance()
    reading = Reading()
  }

  /// Samples the child's threads and adds the interval since the last sample; returns the reading.
  @discardableResult
  mutating func advance() -> Reading {
    advance(to: Self.counts(of: process), at: .now())
  }

  /// Adds the interval from the last sample to `now`, in which the child's threads reached `counts` (nil where unknown); returns the reading.
  mutating func advance(to counts: [pid_t: ThreadCounts]?, at now: MonotonicInstant) -> Reading {
    let interval = now - lastSample
    lastSample = now
    reading.wall += interval
    guard let counts else {
      reading.stalled += interval
      return reading
    }
    var longestWait = Duration.zero
    for (thread, current) in counts {
      let previous =
        lastCounts[thread] ?? ThreadCounts(running: .zero, waiting: .zero, isReady: false)
      let ran = max(.zero, current.running - previous.running)
      var waited = current.waiting - previous.waiting
      if current.isReady { waited = max(waited, interval - ran) }
      longestWait = max(longestWait, waited)
      reading.cpu += ran
    }
    lastCounts = counts
    reading.stalled += max(.zero, interval - longestWait)
    return reading
  }

  /// A thread's scheduler counts: the time it ran, the time it was ready but waited for a CPU (as far as the kernel has counted it), and whether it is ready or running now.
  struct ThreadCounts: Hashable {
    var running: Duration
    var waiting: Duration
    var isReady: Bool
  }

  /// Every thread's counts, or nil when the kernel keeps none (or the child is gone).
  static func counts(of process: pid_t) -> [pid_t: ThreadCounts]? {
    guard let directory = opendir("/proc/\(process)/task") else { return nil }
    defer { closedir(directory) }
    var counts: [pid_t: ThreadCounts] = [:]
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard let thread = pid_t(name),
        let line = readSmallFile("/proc/\(process)/task/\(thread)/schedstat"),
        let stat = readSmallFile("/proc/\(process)/task/\(thread)/stat")
      else { continue }
      let fields = line.split(separator: " ").compactMap { Int64($0.filter(\.isNumber)) }
      guard fields.count >= 2 else { return nil }
      // The state follows the command name, which may hold spaces and parentheses.
      let state = stat.lastIndex(of: ")").flatMap {
        stat[stat.index(after: $0)...].first { $0 != " " }
      }
      counts[thread] = ThreadCounts(
        running: .nanoseconds(fields[0]), waiting: .nanoseconds(fields[1]),
        isReady: state == "R")
    }
    return counts.isEmpty ? nil : counts
  }

  /// The first line of a small file, such as one of /proc's, or nil when it cannot be read.
  static func readSmallFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
  }

  /// The machine's load average over the last minute, or nil where /proc/loadavg cannot be read.
  static func loadAverage() -> Double? {
    readSmallFile("/proc/loadavg")?.split(separator: " ").first.flatMap { Double($0) }
  }
}
