import CTracedMemoryFixtures
import Foundation
import RaceCheck
import Testing

extension RaceCheckTestSuite {
  /// Threads a body makes with `pthread_create` and never joins leave nothing behind its schedules.
  @Suite struct CreatedThreadsTests {
    /// The mappings of this process: each joinable thread that ended keeps its stack and guard page mapped until it is joined.
    static func mappings() throws -> Int {
      try String(contentsOfFile: "/proc/self/maps", encoding: .utf8).split(separator: "\n").count
    }

    @Test func threadsLeftJoinableAreReclaimedAfterEachSchedule() throws {
      let before = try Self.mappings()
      let report = explore(
        "unjoined threads",
        configuration: Configuration.Exploration(schedules: 400, seed: 1, isolated: false)
      ) { rc_unjoined_threads() }
      #expect(report.verdict == .pass, "\(report)")
      // Traced though it touches no memory: its entry says so.
      #expect(report.search.untracedCode.isEmpty, "\(report)")
      // 400 schedules of 2 threads left joinable would keep 1,600 mappings (about 30,000 exhaust
      // a process's and make `pthread_create` fail); reclaimed, the stacks are reused.
      let after = try Self.mappings()
      #expect(after - before < 200, "mappings went from \(before) to \(after)")
    }
  }
}
